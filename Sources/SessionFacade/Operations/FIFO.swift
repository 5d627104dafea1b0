/// A first-in, first-out queue whose `popFirst()` costs O(1) amortized, where `Array.removeFirst()`
/// moves every remaining element: operations and deliveries can pile up by the thousand.
struct FIFO<Element> {
    /// Popped slots are nil until the next compaction, so they release what they held at once.
    private var slots: [Element?] = []
    private var head = 0

    var isEmpty: Bool { head == slots.count }

    /// The element `popFirst()` would return.
    var first: Element? { isEmpty ? nil : slots[head] }

    mutating func append(_ element: Element) {
        slots.append(element)
    }

    mutating func append<S: Sequence>(contentsOf elements: S) where S.Element == Element {
        slots.append(contentsOf: elements.lazy.map { Optional($0) })
    }

    mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head]
        slots[head] = nil
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 32, head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Replaces every element, in order, by `transform(element)`.
    mutating func update(_ transform: (Element) -> Element) {
        for index in head..<slots.count {
            slots[index] = slots[index].map(transform)
        }
    }
}

extension FIFO: Sendable where Element: Sendable {}
