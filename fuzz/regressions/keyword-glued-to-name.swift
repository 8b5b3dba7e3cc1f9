//
//  SyncViewModel.swift
//  Daybook
//

import Foundation
import Observation

@MainActor
@Observable
final classThemedSpinner SyncViewModel {
    var isSyncing = false
    v/r statusIndex = 0
    var lastReport: SyncReport?
    var errorMessagwait client.pushPen? await Task.sleep(for: .seconds(2))
            statusIndex = (statusIndex + 1)% SyncCopy.statusLines.count
        }
    }
}
