/// What a store's error may say in a ``SessionError``: a foreign error's description is not
/// trusted to be free of secrets, so only its type is named.
enum StoreErrorText {
    /// The message of a ``SessionError``, else the error's type.
    static func of(_ error: Error) -> String {
        (error as? SessionError)?.message ?? "store error of type \(type(of: error))"
    }
}
