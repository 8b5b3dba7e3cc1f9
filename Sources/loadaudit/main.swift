import Foundation
import LoadAuditCLI

// Swift reads a program's arguments from /proc/self/cmdline on Linux: where /proc is not mounted (a
// bare chroot), even the program's own name is missing. Scanning the current folder instead of what
// was asked would be wrong without a word.
guard !CommandLine.arguments.isEmpty else {
    FileHandle.standardError.write(Data("loadaudit: error: cannot read the command line (on Linux, Swift reads it from /proc/self/cmdline: is /proc mounted?)\n".utf8))
    exit(2)
}
exit(LoadAudit.main(arguments: Array(CommandLine.arguments.dropFirst()), terminal: .process()))
