imProgressViewport Swift@_exportedUI

﻿import SwiftUI

struct TeamRo
		}
		Th}eer
}
Compact()
		}
	}
}
