// A stand-in for Apple's CoreLocation, of the few declarations this package uses, with the signatures Apple's SDK gives
// them in Swift (CLLocationManager.h, CLLocation.h, CLLocationManagerDelegate.h as Swift imports them). It exists so
// that the code under `#if canImport(CoreLocation)`, which only a Mac compiles, is compiled on Linux too: `scripts/tool
// apple-compile` builds this file as a module named CoreLocation and builds the package against it, with warnings as
// errors. It is never run: the methods do what a type check needs and no more.
//
// What it cannot copy: Objective-C's `@optional` (Swift on Linux has no `@objc`), so the delegate's two methods are
// requirements with default implementations, which a conforming type may implement or not, as with `optional`.
import Foundation

/// `CLLocationDegrees`: `typedef double CLLocationDegrees;`.
public typealias CLLocationDegrees = Double
/// `CLLocationAccuracy`: `typedef double CLLocationAccuracy;`.
public typealias CLLocationAccuracy = Double

/// `CLLocationCoordinate2D`: a C struct of two doubles, imported as a Swift struct.
public struct CLLocationCoordinate2D {
    public var latitude: CLLocationDegrees
    public var longitude: CLLocationDegrees
    public init() {
        latitude = 0
        longitude = 0
    }
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// `@interface CLLocation : NSObject <NSCopying, NSSecureCoding>`: a position, read-only.
open class CLLocation: NSObject {
    public let coordinate: CLLocationCoordinate2D
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
    }
}

/// `@protocol CLLocationManagerDelegate <NSObject>`, its two methods `@optional` in Objective-C.
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
}

extension CLLocationManagerDelegate {
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {}
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {}
}

/// `@interface CLLocationManager : NSObject`: the delegate held weakly (`@property(weak, nullable)`), the accuracy
/// asked for, one request for the position.
open class CLLocationManager: NSObject {
    open weak var delegate: (any CLLocationManagerDelegate)?
    open var desiredAccuracy: CLLocationAccuracy = 0
    override public init() {}
    open func requestLocation() {}
}
