import SwiftUI

// A spinner whose two absorbed modifiers end the file, with no line break after the last one: the
// first, alone on its line, is removed with its line break, and the last, on the last line, with the
// break before it, the same byte. The fixer's removals must be one edit (found by the fuzzer).
struct ExportBadge: View {
    var body: some View { spinner }
}

let spinner = ProgressView()
    .scaleEffect(0.5)
    .tint(.red)