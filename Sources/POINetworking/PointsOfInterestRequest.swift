public import Foundation
public import POIDomain

#if canImport(FoundationNetworking)
    public import FoundationNetworking
#endif

/// The request for the places near a coordinate: `GET <base>/locations?lat=<latitude>&long=<longitude>`.
///
/// The talk's `PointsOfInterestRequest`: both methods are pure functions of their input, so the unit tier tests
/// them directly. The base URL is injectable; its default is the talk's `https://example.com`.
public struct PointsOfInterestRequest: APIRequest {
    /// The talk's placeholder server, used when no base URL is given.
    public static let defaultBaseURL = URL(string: "https://example.com")!

    /// Where the server is; `locations` is appended to its path.
    public var baseURL: URL

    /// Creates the request for the server at `baseURL`.
    public init(baseURL: URL = PointsOfInterestRequest.defaultBaseURL) {
        self.baseURL = baseURL
    }

    /// Builds the `GET` request for the places near `coordinate`; throws `RequestError.invalidCoordinate` for a
    /// coordinate that is not a position on Earth.
    public func makeRequest(from coordinate: Coordinate) throws -> URLRequest {
        do {
            try coordinate.validate()
        } catch {
            throw RequestError.invalidCoordinate(error)
        }
        var components = URLComponents(
            url: baseURL.appendingPathComponent("locations"),
            resolvingAgainstBaseURL: false
        )!
        components.queryItems = [
            URLQueryItem(name: "lat", value: "\(coordinate.latitude)"),
            URLQueryItem(name: "long", value: "\(coordinate.longitude)"),
        ]
        var request = URLRequest(url: components.url!)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        return request
    }

    /// Decodes the JSON array of places; a body that is not such an array throws
    /// `APIError.malformedResponse` with the reason.
    public func parseResponse(data: Data) throws -> [PointOfInterest] {
        do {
            return try JSONDecoder().decode([PointOfInterest].self, from: data)
        } catch let error as DecodingError {
            throw APIError.malformedResponse(reason: error.reason)
        }
    }
}
