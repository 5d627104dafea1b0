import Dispatch
import Foundation
import SessionCore
import SessionFacadeTesting
import SessionPermissions
import SessionFacade
import SessionTesting
import XCTest

/// Rule C11 under load: 10,000 operations of every kind from 8 threads at once, through the
/// LocalProvider's in-process transport. For every operation: exactly one outcome (C2), in call
/// order (C4), on the callback queue (C1), listeners in registration order then the completion
/// (C3). CI runs it under ThreadSanitizer with halt_on_error=1.
final class StressTests: XCTestCase {
    private static let operations = 10_000
    private static let threads = 8

    func testTenThousandOperationsFromEightThreads_C1_C2_C3_C4_C11() async throws {
        let clock = ManualClock()
        let provider = try LocalProvider(clock: clock)
        addTeardownBlock { provider.stop() }
        let transport = provider.inProcessTransport
        let service = SessionService(store: { _ in InMemoryTokenStore() }, transport: transport, clock: clock,
                                     agent: HeadlessUserAgent(transport: transport))
        let queue = DispatchQueue(label: "stress.callbacks", attributes: .concurrent)
        CallbackLog.name(queue, "stress.callbacks")
        service.callbackQueue = queue
        let log = CallbackLog()
        let first = RecordingListener("L1", log: log)
        let second = RecordingListener("L2", log: log)
        service.registerListener(first)
        service.registerListener(second)

        let tickets = TicketCounter()
        @Sendable func call(_ operation: (String) -> Void) { tickets.whileHolding(operation) }
        call { service.initialize(try! provider.configuration(), permissionCenter: try! provider.permissionCenter, completion: log.completion($0)) }

        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let remaining = Countdown(Self.threads) { done.resume() }
            for index in 0..<Self.threads {
                let thread = Thread {
                    var random = SplitMix(seed: UInt64(index + 1))
                    // Each thread keeps at most two operations in flight, so that queues stay
                    // short enough for most operations to reach the provider between sign-outs.
                    let window = DispatchSemaphore(value: 2)
                    @Sendable func completion<Value>(_ ticket: String) -> @Sendable (Result<Value, SessionError>) -> Void {
                        let record: @Sendable (Result<Value, SessionError>) -> Void = log.completion(ticket)
                        return { result in
                            record(result)
                            window.signal()
                        }
                    }
                    for _ in 0..<(Self.operations / Self.threads) {
                        let pick = random.next() % 100
                        window.wait()
                        call { ticket in
                            switch pick {
                            case 0..<35: service.fetchUserInfo(completion: completion(ticket))
                            case 35..<60: service.fetchPermissions(identifiers: [.tagProtocolIdentifier], completion: completion(ticket))
                            case 60..<78: service.updatePermissions(PermissionUpdate(idConsent: .valid), completion: completion(ticket))
                            case 78..<97: service.getAuthorization(flow: .loginPermission, completion: completion(ticket))
                            case 97..<99: service.endSession(completion: completion(ticket))
                            default: service.initialize(try! provider.configuration(), permissionCenter: try! provider.permissionCenter, completion: completion(ticket))
                            }
                        }
                    }
                    remaining.countDown()
                }
                thread.start()
            }
        }

        let total = Self.operations + 1
        let events = await log.waitForEvents(3 * total, timeout: 600)
        XCTAssertEqual(events.count, 3 * total, "three deliveries per operation: L1, L2, completion")
        var expectedTicket = 0
        var problems: [String] = []
        for (offset, event) in events.enumerated() {
            if event.queue != "stress.callbacks" { problems.append("#\(offset) \(event) on \(event.queue)") }
            switch offset % 3 {
            case 0: if event.receiver != "L1" { problems.append("#\(offset) expected L1, got \(event)") }
            case 1: if event.receiver != "L2" { problems.append("#\(offset) expected L2, got \(event)") }
            default:
                if event.receiver != "completion" || event.callback != "\(expectedTicket)" {
                    problems.append("#\(offset) expected the completion of operation \(expectedTicket), got \(event)")
                }
                expectedTicket += 1
            }
            if problems.count > 10 { break }
        }
        XCTAssertEqual(problems, [])
        XCTAssertEqual(expectedTicket, total)
        let completions = events.filter { $0.receiver == "completion" }
        let outcomes = Dictionary(grouping: completions, by: \.payload).mapValues(\.count)
        print("stress outcomes:", outcomes.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
        XCTAssertGreaterThan(outcomes["sub=erika", default: 0], 100, "UserInfo really ran against the provider")
        XCTAssertGreaterThan(outcomes["token", default: 0], 100, "sign-ins really ran")
        XCTAssertGreaterThan(outcomes["sessionEnded", default: 0], 0, "endSession really jumped queued operations")
    }
}

/// Numbers calls in the order they are made: the call runs while the lock is held, so ticket
/// order is the order in which the service's methods were entered.
final class TicketCounter: Sendable {
    private let next = Locked(0)

    func whileHolding(_ operation: (String) -> Void) {
        next.withLock { next in
            operation("\(next)")
            next += 1
        }
    }
}

/// Runs `done` once `countDown()` has been called `count` times, from any threads.
///
final class Countdown: Sendable {
    private let remaining: Locked<Int>
    private let done: @Sendable () -> Void

    init(_ count: Int, done: @escaping @Sendable () -> Void) {
        remaining = Locked(count)
        self.done = done
    }

    func countDown() {
        let finished = remaining.withLock { remaining -> Bool in
            remaining -= 1
            return remaining == 0
        }
        if finished { done() }
    }
}

/// A small seeded generator (SplitMix64), so a failing run can be repeated.
struct SplitMix {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
