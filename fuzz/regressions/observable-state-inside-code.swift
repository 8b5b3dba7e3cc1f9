import SwiftUI

// A property wrapper inside code (here a type declared in a function) is no member of the file's
// types: both walks, whole and skipping, must leave it out, or a clock elsewhere in the file counts in
// one and not in the other.
func makePreview() -> some View {
    struct Preview: View {
        @State private var step = 0
        var body: some View { EmptyView() }
    }
    return Preview()
}

struct Ticker {
    var step = 0

    mutating func run() async {
        while true {
            try? await Task.sleep(nanoseconds: 1_000_000_000)
            step += 1
        }
    }
}
