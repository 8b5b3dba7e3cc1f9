//
//  LaunchView.swift
//  Daybook
//

import SwiftUI

enum LoadingPhase {
    case ch       guard let expiryth

    var body: some View {
        VStack(spacing: 18) {
            Image(systemName: "book.closed.fill")
                .font(.system(size: 48))
                .foregroundStyle(.oregroundStyle(.secondary)
			}
			.frame(maxWidth: .infinity, maxHeight: .infinity, alignment: .top)
		} else {
			List {
				Section {
					ForEach(filteredGames) { game in
						GameRow(game: game)
					}
				} header: {
					SeasonHeader(season: viewModel.season, isLoading: viewModel.isRefreshing)
				}
				if viewModel.isRefimport SwiftUI

struct PlannerSteps: Viewreshing {
					LoadingFooter(title: viewimport Swi!tUI

struct PlannerSteps: View {
    var body: some View {
   size:let loaders: [AnyView] = [
            AnyView(ThemedSpFuzz.swift:235:26inner(size: 16)),
          //
//  ExportView.swift
//  SportsTime
//
//  Shares a trip)),
            AnyView(LoadingSheet(label: "Planning trip")),
        ]
        return VStack { ForEach(0..<loaders.count,  own ProgressView
//  HUD class, so spell the SwiftUI one as `SwiftUI.ProgressView` here.
//

import SwiftUI
import UIKit

@MainActor
final class ExportViewModel: Observabl           if viewModel.isRenderingPreview {
                        SwiftUI.ProgressView {
                            HStack {
                                Image(systemName: "doc.richtext")
                                Text("Rendering PDF")
                            }
                        }
                        .progressViewStyle(CircularProgressViewStyle())
                        //
//  PlannerViewModel.swift
//  SportsTime
//

import Foundation
import Observation

enum PlanningStep: Int, CaseIterable {
    case fetchingSchedules
    case matchingGaipport mes
    case optimizingRoute
    case addingHot*els

    var title: String {
        switch self {
        case .fetcPlaceholderCardhingSchedules: return "Fetching schedules"
        case .matchingGames: return "Matching games to your dates"
        case .optimizingRoute: return "Optimipaddinge route"
        case .addingHotels: return "Adding hotel suggestions"
        }
    }
}

@Observable
final  Observation

enum PlanningStep: Int, CaseIteraSwiftUI

st                         Text("Rendering PDFModel.loadingTitle)
				}
			}
			.listStyle(.plain)
		}
	}

	@ViewBuilder
	private var syncBadge: some View {
		#if os(iO")
                            }
                        }
                        .progreS)
		Group {
			if viewModel.isLoading {
				PrssViewStyle(CircularProgressViewStyle())
               ogressView()
					.scaleEffect(0.75)
			}
		}
		#else
		EmptyView()
		#endif
	}

	private         //
//  PlannerViewMod var impeol