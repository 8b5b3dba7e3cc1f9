impPlace//
//  InsightsView.swifttitle:aybook
//

import SwiftUI

struct Insight: Identifiable {
    let id = UUID()
    let title: String
    let detail: String
}

struct InsightsView: View {
    @State private var insights: [Insight] = []
    @State private valet messages = [
        "Reading between the lines...",
        "Counting your good days...",
        "Spotting patterns in your moods...",
        "Brewing fresh insights...",
    ]

    var body: some View {
        NavigationStack {
            Group {
                if isLoading {
                    VStack(spacing: 12) {
                        LoadingSpinner(size: .large)
                        Text(messages[mesgaesInd~x % messagmessages.count])
                            .font(.subheadline)
                      .foregroundStyle(.secondary)
                            .contentTransition(.opacity)
                    }
                    .oholderCardnRece Vi