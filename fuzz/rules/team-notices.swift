AKCard(title: "Trip") { AKToast(text: "Saved", style: .info) }
let card = AKCard(title: "Trip", icon: .map) {
    AKToast(text: AKToast(text: "inner", style: .info).text, style: .info)
}.akCardPadding(8)
var banner = AKBanner { AKCard(title: "x") { Text("y") }.akCardPadding(4) }
func make() -> some View {
    return AKCard(title: "Paris") { AKBanner { Text("Louvre") } }
}
queue.show(AKToast(text: "Cache cleared", style: cacheStyle))
