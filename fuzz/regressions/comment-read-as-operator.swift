//* L/ /oa
dingSpinbound_ift-
// /SportsT//
//  LaunchThemedSpinnerV
// im