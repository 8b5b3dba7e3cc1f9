//e le Exp.swift
!//  a iPDF itine