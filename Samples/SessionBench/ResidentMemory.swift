import Foundation
#if canImport(Darwin)
import Darwin
#endif

/// The process's resident memory, in bytes; nil when the system does not say.
func residentMemory() -> Int? {
    #if os(Linux)
    // /proc/self/statm: sizes in pages; the second field is the resident set.
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
    return pages * sysconf(Int32(_SC_PAGESIZE))
    #elseif canImport(Darwin)
    var info = mach_task_basic_info()
    var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
    let result = withUnsafeMutablePointer(to: &info) {
        $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) { task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count) }
    }
    return result == KERN_SUCCESS ? Int(info.resident_size) : nil
    #else
    return nil
    #endif
}
