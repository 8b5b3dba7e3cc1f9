impPlace//
//  InsightsView.swifttitle:aybook
//

imporate valet messages = [
        "Reading between the lines...",
        "Counti",
    ]

title:aybook
//

imporate valet messages = [
        "Reading between the lines...",
        "Counti",
    ]

    var body: some View {
        NavigationStack dStyle(.secondary)
                         . c  ontentTransition(.opacity)
                    }
                    .oholderCardnRece Vi