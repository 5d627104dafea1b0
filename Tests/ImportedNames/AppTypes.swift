// What GoogleSignIn5SwiftApp.swift's App* names are when Tests/ImportedNames/run.sh compiles it
// against the transcribed Objective-C headers: the headers' own classes (there is no Foundation
// overlay to bridge them to Swift's types here).
typealias AppString = NSString
typealias AppStringArray = NSArray<NSString>
typealias AppURL = NSURL
typealias AppError = NSError
typealias AppViewController = UIViewController

/// The access token FakeAuthentication answers with.
let fakeAccessToken = NSString()

/// A member's text, "-" when it has none.
func text(_ value: AppString?) -> String { value.map { "\($0)" } ?? "-" }
