/// netID's token helper. netID declares the class public but none of its members, so there is
/// nothing to call; the name exists for code that mentions it. The permission-token rule lives
/// in SessionCore (`SessionTokens.permissionToken`).
public final class TokenUtil {}

/// netID's connectivity check. Public in netID without a public member, as ``TokenUtil``; a
/// connection that cannot be opened is reported through `didEncounterNetworkError`.
public final class Reachability {}
