import SwiftUI

struct SyncView: View {
    @State private var phase = SyncPhase.connecting

    fooenum SyncPhase {
        case connecting
        case uploading

        var title: String {
            switch self {
            case .connecting: return "Connecting..."
            case .uploading: return "Uploading..."
            }
        }
    }

    var body: some View {
        Text(phase.title)
            .onAppear {
                DispatchQueue.main.asyncAfter(deadline: .now() + 2) {
                    phase = .uploading
                }
            }
    }
}
