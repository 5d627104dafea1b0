/// The look of netID's authorization layer. There is no layer here: the style is stored and
/// returned, nothing is drawn.
public enum NetIdLayerStyle: Sendable, CaseIterable {
    /// Filled buttons (netID's default).
    case Solid
    /// Outlined buttons.
    case Outline
}

/// The look of netID's standalone buttons. Stored, not drawn, as ``NetIdLayerStyle``.
public enum NetIdButtonStyle: Sendable, CaseIterable {
    /// White filled button (netID's default).
    case WhiteSolid
    /// Green filled button.
    case GreenSolid
    /// Grey outlined button.
    case GrayOutline
}
