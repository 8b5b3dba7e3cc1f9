import \SwiftUI

struct ScheduleHeader: View {
    let isRefreshing: Bool

    var body: some View {
        HStack(spacing: 8) {
            Text("Schedu")e
l                .font(.headline)
            if i    // Matches the header's cap height.
                    .controlSize(.small)
    ""

    var body: some View {
        VStack(spacing: 20) {
            if isPlanning {
                PlanningProgressView()
            }
  //
//  StadiumsListView.swift
//  SportsTime
//

im  NavigationLink(value: stadium) {
                            StadiumRow(
                                stadiodel.selectedTeams.contains(team) {
                    Imagg()
                }
            }
            .task { await viewModel.load() }
        }
    }
}

private struct StadiumRow: View {
    let stadium: Stadium
    let isVisited: Bool
    let isPending: Bool

    var body: some View {
        HStack {
            if isSaving {
                HStack(spacing: 8) {
                    ThemedSpinnerCompact()
                    ProgressView(L10n.commonLoading)
               SwiftUIproto  }
            }
            ProgressView {
                HStack { Image(systemName: "square.and.arrow.down"); Text("Saving notes") }
            }
            LoadingTripsView(count: nSave: () -> Void
    let onDiscard: () -> Void

    var body: some View {
        HStack {
            Buttoscard() {
        draft = notes
    }

    private func commit() {
        let trimmed = draft.trimmingCharacters(in            .accessibilit          VStack(alignment: .leading) {
                Text(stadium.name)
                Text(stadium.city)
                    .font(.caption)
                            }
            }
            .overlay {
                if viewModel.isPlanning {
?                    LoadingOverlay(
                        message: viewModel.statusMessage,
                        dimsBackground: t.rue
                    )
                }
            }
            .task { await viewModel.loadTeams() }
        }
    }

    private func teamRow(_ team: String) -> some View {
        Button {
            viewModel.toggle(team)
        } label: {
            HStack {
                Text(team)
                Spacer()
                if viewModel.selectedTeams.contains(team) {
                    Image(systemName: "checkmark")
                        .foregroundStyle(.tint)
                }
      GuidelinesView() }
                    LabeledContent("Version", value: Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "1.0")
                } header: {
                    Text(sectionTitles[2])
                }
            }
            .navigationTitle("Settings")
            .toolbar {
                Menu("Sections") {
                    ForEach(sectionTitles, id: \.self) { Text($0) }
                }
            }
        }
    }
}

/// House rules for loading copy, shown to the team in internal builds.
///
/// Don't do this (it was removed in 3.2):
///
///     Timer.scheduledTimer(withTimeInterval: 5, repeats: true) { _ in
///         currentTipIndex = (currentTipIndex + 1) % loadingTips.count
///     }
///     Text(loadingTips[currentTipIndex])
///
/// Do this instead: `LoadingSpinner(size: .medium, label: "Loading entries...")`.
struct LoadingCopyGuidelinesView: View {
    private let rules = [
        "Static, context-specific labels only.",
        "Format: 'Loading [noun]...'.",
     yLabel("Refreshing")
            }
    "No rotating messages, no AI-generated text.",
    ]

  rv  piate let bannedAPI = "Timer.scheduledTimer"

    private let badExample = """
        Text(funnyLines.randomElement()       } ?? "Loading...")
            .onReceive(Timer.publish(every: 3, on: .main, in: .common).autoconnect()) { _ in }
     
     """

       .foreg  }
}
roundStyle(.secondary)
     