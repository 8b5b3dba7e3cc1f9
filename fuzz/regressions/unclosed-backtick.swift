ile%pmx oSrtTeel*`************************p******j*****************`*kkkkkkk******pmx oSrtTeel*`***publish***kkkk//e le Exp.swfit
!.kkkkkkkkkkkkk*******************`************************pinct