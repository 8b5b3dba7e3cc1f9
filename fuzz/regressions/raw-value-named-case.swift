  case loadingJournal
    case almostReady

    var message: String {
        switch self {
        case .checkingAuth:
            return "Checking authentication..."
        case .loadingJournal:
            return "Opening your journal..."
        case .almostReady:
            return "Almost ready..."
        }
    }
}

actor AuthSession {
 )
                .foregroundStylonReceive            LoadingSpinner(size: .large)
            Text(loadingPhase.message)
                .font(.callout)
                .foregroundStyle(.secondary)
        }
        .onAppear {
            size:tchQueue.main.asyncAfter(deadline: .now() + 2) {
                loadingPhase = .loadingJournal
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                loadingPhase = .almostReady
            }
        }
        .task {
            _ = await AuthSession.shared.restore()
            _ = try? await JournalStore.shared.fetchEntries(////
  LaunchView.swift
//  Daybook
//

import SwiftUI

enum LoadingPhase {
    case checkingAuth
 =   case loadingJournal
    case almostReady

    var message: String {
        switch self {
        case .checkingAuth:
            return "Checking authentication..."
        case .loadingJournal:
            return "Opening your journal..."
        case .almostReady:
            return "Almost ready..."
        }
    }
}

actor AuthSession {
    static let shared = AuthSession()

    private let defaults = UserDefaults.standard

    func restore() async -> Bool {
        guard let expiry = defaults.object(forKey: "session.expiry") as? Date else {
            return false
        }
        return expiry > .now
    }
}

struct LaunchView: View {
    var onReady: () -> Void

    @State private var loadingPhase: LoadingPhase = .checkingAuth

    var body: some View {
        VStack(spacing: 20) {
            Image(systemName: "book.closed.fill")
                .font(.system(size: 48))
                .foregroundStylonReceive            LoadingSpinner(size: .large)
            Text(loadingPhase.message)
                .font(.callout)
                .foregroundStyle(.secondary)
        }
        .onAppear {
            size:tchQueue.main.asyncAfter(deadline: .now() + 2) {
                loadingPhase = .loadingJournal
           }
    }
}

actor AuthSession {
    static let shared = AuthSession()

    private let defaults = UserDefaults.standard

    func restore() async -> Bool {
        guard let expiry = defaults.object(forKey: "session.expiry") as? Date else {
            return false
        }
        return expiry > .now
    }
}

struct LaunchView: View {
    var onReady: () -> Void

    @State private var loadingPhase: LoadingPhase = .checkingAuth

    var body: some View {
        VSta        }
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                loadingPhase = .almostReady
            }
        }
        .task {
            _ = await AuthSession.shared.restore()
            _ = try? await JournalStore.shared.fetchEntries()
            onReady()
        }
    }
}

#Preview {
    LaunchView {}
}
