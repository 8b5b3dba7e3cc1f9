import Foundation
import LoadAuditCLI

exit(LoadAudit.main(arguments: Array(CommandLine.arguments.dropFirst()), terminal: .process()))
