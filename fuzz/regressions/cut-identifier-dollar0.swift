import SwiftUtid: \.self) { loaders[$0rt SwiftUt, id: \.self) { loaders] } }
    }
}D
