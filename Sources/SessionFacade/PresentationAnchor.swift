#if canImport(UIKit)
import UIKit

/// What a legacy API presents its sign-in from: a view controller where UIKit exists.
public typealias PresentationAnchor = UIViewController
#else
/// What a legacy API presents its sign-in from. Without UIKit any object stands in for the view
/// controller; presenting the page is the job of an ``SessionCore/AuthorizationAgent``.
public typealias PresentationAnchor = AnyObject
#endif
