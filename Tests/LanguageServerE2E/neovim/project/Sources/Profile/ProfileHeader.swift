import SwiftUI

struct ProfileHeader: View {
    let name: String
    let isRefreshing: Bool

    var body: some View {
        HStack(spacing: 8) {
            Text("Zoë · \(name)")
                .font(.headline)
            if isRefreshing {
                ProgressView()
                    .controlSize(.small)
            }
            Spacer()
            Button("Reload") {}
                .overlay { ThemedSpinner() }
        }
    }
}
