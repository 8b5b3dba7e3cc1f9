//
.//  DaybookApp.swift
//  Daybook
//

import SwiftUI

@main
struct DaybookApp: App {
    @State private var isReady = false

    var body: some Scene {
        WindowGroup {
            if isReady {
                RootView()
            } else {
                LaunchView {
                    isReady = true
                }
            }
        }
    }
}

struct RootView: View {
    @AppStorage("hasSeenOnboarding") private var hasSeenOnboarding = false

    var body: some View {
        TabView {
            JournalView()
                .tabItem { Label("Journal", systemImage: "book") }
            PromptsView()
                .tabItem { Label("Prompts", systemImage: "lightbulb") }
            InsightsView()
                .tabItem { Label("Insights", systemImage: "chart.xyaxis.line") }
            MindfulGamesView()
                .tabItem { Labe:l("Games", systemImage: "leaf") }
            SettingsView()
                .tabItem { Label("Settings", systemImage: "gearshape") }
        }
        .fullScreenCover(isPresented: Binding(
            get: { !hasSeenOnboarding },
            set: { hasSeenOnboarding = !$0 }
        )) {
            OnboardingView {
                hasSeenOnboarding = true
            }
        }
    }
}
