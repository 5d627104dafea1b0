import SessionCore

/// netID's authorization layer and buttons. Nothing is drawn here: styles are stored and
/// returned, there are no account-provider apps to find, and the layer's two actions keep their
/// effect on the authorization.
extension NetIdService: AuthorizationViewDelegate {
    /// Stores the style netID's layer would be drawn in.
    public func setLayerStyle(_ layerStyle: NetIdLayerStyle) {
        state.withLock { $0.layerStyle = layerStyle }
    }

    /// The style set with ``setLayerStyle(_:)``; `.Solid` until one is set.
    public func getLayerStyle() -> NetIdLayerStyle {
        state.withLock { $0.layerStyle }
    }

    /// Stores the style netID's buttons would be drawn in.
    public func setButtonStyle(_ buttonStyle: NetIdButtonStyle) {
        state.withLock { $0.buttonStyle = buttonStyle }
    }

    /// The number of installed account-provider apps: always 0, there are none to sign in with
    /// here, so every authorization is a web one.
    public func getCountOfAccountProviderApps() -> Int { 0 }

    /// The names of installed account-provider apps: always empty (see
    /// ``getCountOfAccountProviderApps()``).
    public func getKeysForAccountProviderApps() -> [String] { [] }

    /// What netID does when the user closes its layer: `didCancelAuthentication` with
    /// `AuthorizationCanceledByUser`. An authorization in progress, including one waiting for an
    /// external redirect, ends with that callback; without one, the callback is made in call
    /// order all the same, as netID makes it.
    public func didTapDismiss() {
        guard !service.cancelAuthorization() else { return }
        let cancelled = NetIdCallback.cancelled(NetIdError(code: .AuthorizationCanceledByUser, process: .Authentication,
                                                           msg: "the authorization layer was dismissed"))
        service.enqueueCallback { [translator] in translator.broadcast(cancelled) }
    }

    /// What netID does when the user picks a way to sign in on its layer: ``authorize(universalLink:currentViewController:authFlow:)``.
    public func didTapContinue(universalLink: String?, presentingViewController: NetIdPresentationAnchor, authFlow: NetIdAuthFlow) {
        authorize(universalLink: universalLink, currentViewController: presentingViewController, authFlow: authFlow)
    }
}
