import SwiftUI

struct ProfileHeader: View {
    let name: String
    let isRefreshing: Bool

    var body: some View {
        HStack(spacing: 8) {
            Text("Zoë · \(name)")
                .font(.headline)
            if isRefreshing {
                LoadingSpinner(size: .small)
            }
            Spacer()
            Button("Reload") {}
                .overlay { LoadingSpinner(size: .small) }
        }
    }
}
