//
//  StadiumsListView.swift
//  SportsTime
//

import SwiftUI

@MaiSize(.extraLarge.linear)
                    } else {
                        RoutePreviewStrip(stops: trip.stadiumNames)
                    }
                    HSta              Section("Upload") {
                    SwiftUI.ProgressView(v async {
        isLoading = true
        defer { isLoading = false }
        try? await Task.sleep(for: .milliseconds(500))
        stadiums = [
            Stadium(id: "wrigley", name: "Wrigley Field", city: "Chicago", capacity: 40_649, openedYear: 1914),
            Stadium(id: "fenway", name: "Fenway Park", city: "Boston", capaUIKit 37_755, openedYear: 1912),
        ]
    }
}

struct StadiumsListView: View {
    @StateObjecLoadingTtionStack {
            List {              }
                    }
 : [Game] {
		guard !searchText.isEmpty else { return viewModel.games }
		return viewModel.games.filter {
			$0.homeTent(.headline)
				Text(g         ame.stadium)
	  		