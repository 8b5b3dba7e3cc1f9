enum LoadingCopy {
    static let x
    .name = [
        "Warming up the oven",
        "Almost there",
    ]
}
