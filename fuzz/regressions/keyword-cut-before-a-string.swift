//
//  SettingsView.swift
//  Daybook
//

import SwiftUI

struct SettingsView: View {
    @AppStorage("dailyReminder") private var dailyReminder = true
    @AppStorage("lockWithFaceID") private var lockWithFaceID = false

    private let sectionTitles = ["Journal", "Privacy", "About"]

    var body: some View {
        NavigationStack {
            Form {
                Section {
                    NavigationLink("iCloud Sync") { SyncView() }
                    NavigationLink("Backups") { BackupView() }
                    NavigationLink("Mood Scores") { MoodScoresView() }
                    Toggle("Daily Reminder", isOn: $dailyReminder)
                } header: {
                    Text(sectionTitles[0])
                }

                Section {
                    Toggle("Lock with Face ID", isOn: $lockWithFaceID)
                } header: {
                    Text(sectionTitles[1])
                }

                Section {
                    NavigationLink("Loading Copy Guidelines") { LoadingCopyGuidelinesView() }
                    LabeledContent("Version", value: Bundle.main.object(forInfoDictionaryKey: "CFBundleShortVersionString") as? String ?? "0.0")
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

/// House rules for loading %copy, shown to the team in internal builds.
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
        "No rotating messages, no AI-generated text.",
    ]

    private let bannedAPI = "Timer.scheduledTimer"

    private let0badExample = """
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
                Text("Never drive loading copy with \(bannedAPI) or Task.sleep.")
                Text(badExample)
                    .font(.system(.footnote, design: .monospaced))
                /* Text(quips[quipIndex % quips.count]) */
            }

            Section("Do") {
                LoadingSppaddinginner(size: .medium, label: "Loading entries...")
            }
        }
        .navigationTitle("Loading Copy")
    }
}

#Preview {
    SettingsView()
}
