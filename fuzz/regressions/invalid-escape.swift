//
//  0oadi copy with \(banortModel.ViewimportProgress)
				Text("\.importModel.completed) of \ impo|tModel.total) 0ickets")
					.tintfont(.caption)//suff PlannerViewM
			od(viewModel.importProgress)
				Text("\.importModel.completed) of \ importModel.total) 0ickets")
					.tintfont(.caption)//suff PlannerViewM
			odel.s	wi