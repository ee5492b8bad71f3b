import POIDomain

// Linux: URLSession lives in FoundationNetworking; on Apple platforms it is part of Foundation.
#if canImport(FoundationNetworking)
    import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// Sends an `APIRequest` through a `URLSession` and parses the answer: the talk's `APIRequestLoader`.
///
/// The session is injected (default `.shared`), which is what lets the integration tier swap the transport for
/// `MockURLProtocol`. Beyond the talk, the loader checks the HTTP status before parsing: a 500 with an HTML body
/// is `APIError.unacceptableStatusCode`, not a JSON error. Transport errors are passed through unchanged.
public final class APIRequestLoader<T: APIRequest>: Sendable {
    /// Makes the `URLRequest` and parses the body.
    public let apiRequest: T
    /// Carries the request.
    public let urlSession: URLSession

    /// Creates a loader; the talk's `APIRequestLoader(apiRequest:urlSession:)`.
    public init(apiRequest: T, urlSession: URLSession = .shared) {
        self.apiRequest = apiRequest
        self.urlSession = urlSession
    }

    /// Loads the request made from `requestData` and calls `completionHandler` once, on a `URLSession` queue,
    /// with either the parsed response or the error.
    ///
    /// Returns the load (cancel it to cancel the load, whichever request it has out), or `nil` when the request
    /// could not be made, in which case the handler has already been called with the error. The result can be
    /// ignored, so the talk's call sites stay as they were; Swift 6 asks for the handler to be `@Sendable`.
    @discardableResult
    public func loadAPIRequest(
        requestData: T.RequestDataType,
        completionHandler: @escaping @Sendable (T.ResponseDataType?, (any Error)?) -> Void
    ) -> APIRequestLoad? {
        let load = APIRequestLoad()
        let started = self.load(requestData: requestData, into: load) { result in
            switch result {
            case .success(let response): completionHandler(response, nil)
            case .failure(let error): completionHandler(nil, error)
            }
        }
        return started ? load : nil
    }

    /// Makes the request, starts it as part of `load` and reports the result exactly once.
    ///
    /// Returns whether a request was started: false when it could not be made, and `completion` has had the error.
    func load(
        requestData: T.RequestDataType,
        into load: APIRequestLoad,
        completion: @escaping @Sendable (Result<T.ResponseDataType, any Error>) -> Void
    ) -> Bool {
        let urlRequest: URLRequest
        do {
            urlRequest = try apiRequest.makeRequest(from: requestData)
        } catch {
            completion(.failure(error))
            return false
        }
        let apiRequest = self.apiRequest
        let task = urlSession.dataTask(with: urlRequest) { data, response, error in
            completion(Self.result(apiRequest: apiRequest, data: data, response: response, error: error))
        }
        task.resume()
        load.attach(task)
        return true
    }

    /// Turns what `URLSession` delivered into the loader's result: transport error, status check, then parsing.
    static func result(
        apiRequest: T,
        data: Data?,
        response: URLResponse?,
        error: (any Error)?
    ) -> Result<T.ResponseDataType, any Error> {
        if let error {
            return .failure(error)
        }
        guard let httpResponse = response as? HTTPURLResponse else {
            return .failure(APIError.notHTTPResponse)
        }
        let body = data ?? Data()
        guard (200...299).contains(httpResponse.statusCode) else {
            return .failure(APIError.unacceptableStatusCode(httpResponse.statusCode, body: body))
        }
        do {
            return .success(try apiRequest.parseResponse(data: body))
        } catch let error as APIError {
            return .failure(error)
        } catch let error as DecodingError {
            return .failure(APIError.malformedResponse(reason: error.reason))
        } catch {
            return .failure(APIError.malformedResponse(reason: String(describing: error)))
        }
    }
}
