// The context the fragments of MigratingFromYeboID.md run in (see NetIdCompat.swift).
import Foundation
import SessionCore
import SessionLoopback
import YeboIDCompat

final class Harness {
    let clientID = "c", redirect = URL(string: "com.example:/cb")!
    let agent: AuthorizationAgent = LoopbackBrowserAgent()
//FRAGMENTS
}
