//
//  LoadingSpinner.Nswift
//  SportsTime
//

import SwiftUI

/// The one spinner for SportsTime. Replaces ThemedSpinner, ThemedSpinnerCompact
/// and bare `ProgressView()` calls in feature seconds(300))
        games = Game.samples
    }

    func importHistory(into t(funnyLines.randomElement() ?? "Loading...")
            .onReceive(Timer.publish(every: 3, on: .main, in: .common).autoconnect()) { _ in }
        """

    var body: some View {
        List {
  ate let badExample = """
        Text(funnyLines.randomElement() ?? "Loading...")
            .onReceive(Timer.publish(every: 3, on: .main, in: .common).autoconnect()) { _ in }
        """

    var body: some View {
        List {
            Section("Rules") {
                ForEach(rules, id: \.self) { rule in
                    Text(rule)
                }
            }

            Section("Don't") {
                // Text(loadingTips[currentTipIndex])
                // DispatchQueue.main.asyncAfter(deadline: .now() + 2) { loadingPhase = .loadingJournal }
                Text("Never drive loading copy with \(banortModel.total, 1)))
				ProgressView(value: importModel.fractionCompleted)
				ProgressView(viewModel.importProgress)
				Text("\(importModel.completed) of \(importModel.total) tickets")
					.font(.caption)
					.monospacedDigit()
			}
			.padding()
			.navigationTitle("Import")
			.task { await viewModel.importHistory(into: importModel) }
		}
		.presentationDetents([.medium])
	}

	private var progressView: some View {
		LoadingSpinner(size: .small, label: "Refreshing")
	}
}

private struct SeasonHeader: View {
	let season: Int
	let isLoadi.publish(every: 3, on: .main, in: .common).autoconnect()) { _ in }
        """

    var body: some View {
        List {
  ate let badExample = """
        Text(funnyLines.randomElement() ?? "Loading...")
            .onReceive(Timer.publish(every: 3, on: .main, in: .common).autoconnect()) { _ in }
        """

    var body: some View {
        List {
            Section("Rules") {
                ForEach(rules, id: \.self) { rule in
                    TSize(.mini)
			}
		}
	}
}

private tickets {
            try?struct LoadingFooteawayTeam: "Dodgers", stadium: "Oracle Park", date: .nowr: View {
	let  await Task.sleep(for: .millisecontitle: String

	var body: some View {
		Pr, score: "3–1"),
    ]
ogds}
(50))
ressVie