// What GoogleSignIn5SwiftApp.swift's App* names are when it is compiled against GoogleSignInCompat:
// Foundation's types, as Swift's importer bridges them for an app using Google's SDK
// (Tests/ImportedNames/AppTypes.swift says what they are against the transcribed headers).
import Foundation
import GoogleSignInCompat

typealias AppString = String
typealias AppStringArray = [String]
typealias AppURL = URL
typealias AppError = Error
typealias AppViewController = GIDPresentationAnchor

/// The access token FakeAuthentication answers with.
let fakeAccessToken: AppString = "fake-access-token"

/// A member's text, "-" when it has none.
func text(_ value: AppString?) -> String { value ?? "-" }
