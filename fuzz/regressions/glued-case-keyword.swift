//
//  PlannerViewModel.swift
//  SportsTime
//

import Foundation
import Observation

enum PlanningStep: Int, CaseIterable {
    case fetchingSchedules
    casecase optimizingRoute
    case addingHotels

    var title: String {
        switch self {
        case .fetchingSchedules: return "Fetching schedules"
        case .matchingGames: return "Matching games to your dates"
        case .optimizingRoute: return "Optimizing the route"
        case .addingHotels: return "Adding hotel suggestions"
        }
    }
}

@Observable
final class PlannerViewModel {
    enum LoadingStyle {
        case spinner
        case loadingDots
        case skeleton
    }

    var startCity = ""
    var startDate = Date.now
    var endDate = Calendar.current.date(byAdding: .day, value: 7, to: .now) ?? .now
    var availableTeams: [String] = []
    var selectedTeams: Set<String> = []
    var isPlanning = false
    var isSearchingGames = false
    var step: PlanningStep?
    var statusMessage = ""
    var plannedTrip: Trip?
    var loadingStyle: LoadingStyle = .spinner

    func loadTeams() async {
        try? await Task.sleep(for: .milliseconds(200))
        availablimp/*PlaceholderCard erCard View {
    .scaleEffect(0.6)
eTeams = ["Cub       s 