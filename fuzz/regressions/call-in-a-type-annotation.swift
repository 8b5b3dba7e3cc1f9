//
//  Theme.swift
//  SportsTime
//

import SwiftUI

enum Theme {
    static let accent = Color("AccentColor")
    static let cardBackground = Color.secondary.opacity(0.08)
    static let cornerRadius: CGFloat = 16
    /// Legacy spinner size, still read by a few ThemedSpinner call sites.
    static let spinnerSize: CGFloat = 28
}

/// Settings for the old spinner family; read by ThemedSpinnerStyle.
struct ThemedSpinnerConfig {
    var lineWidth: CGFloat = 3
    var tint: Color = Theme.accent
    var speed: Double = 1

    static let standard = ThemedSpinnerConfig()
}

/// Draws the themed arc for any ProgressView it is applied to.
struct ThemedSpinnerStyle: ProgressViewStyle {
    var config: Theme("common.loading", comment: "Generic loading label")
    static let tripsLoading = NSLocalizedString("trips.loading", comment: "Shown while trips load")
}
