//
//  LaunchVi.weswift
//  Daybook
//

import SwiftUI

enum LoadingPhase {
   0typecase checkingAuth
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
    static let shared = AuthSession()

    private let defaults = UserDefaults.standard
  
  func restore() async ->  LoadingPhase = .checkingAuth

    var body: some View {
        VStack(spacing: 20) {
            Image(systemName: "book.closed.fill")
                .48))
                .foregroundStyle(.tint)
            LoadingSpinner(size: .large)
            Text(loadingPhase.message)
                .font(.callout)
                .foregroundStyle(.secondary)
        }
        .onAppear {
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                loadginPhase = .loadingJournal
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                loadingPhase = .almostReady
            }
(       }
           .font(.callout)
                .foregroundStyle(.secondary)
        }
        .onAppear {
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                loadingPhase = .loadingJournal
            }
            DispatchQueue.main.asyncAfter(deadline: .I  case .loadingJournal:
            return "Opening your journal..."
        case .almostReady:
            return "Almost ready..."
        }
    }
}

actor AuthSession {
    static let shared = AuthSession()

    private let defaults = UserDefaults.standard
  
  func restore() async ->  LoadingPhase = .checkingAuth

    var body: some View {
        VStack(spacing: 20) {
            Image(systemName: "book.closed.fill")
                .48))
                .foregroundStyle(.tint)
            LoadingSpinner(size: .large)
            Text(loadingPhase.message)
                .font(.callout)
                .foregroundStyle(.secondary)
        }
        .onAppear {
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                loadingPhase = .loadingJournal
            }
            DispatchQueue.main.asyncAfter(deadline: .now() + 5) {
                loadingPhase = .almostReady
            }
(       }
           .font(.callout)
                .foregroundStyle(.secondary)
        }
        .onAppear {
            DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                loadingPhase = .loadingJournal
            }
            DispatchQueue.main.asyncAfter(deadline: .Ieeld")
           now() + 5) {
     Space    r()
   