// HTTP routes as protocol.yaml lists them: the generated `Routes` enums hold one value per route.

import Foundation

public struct RouteResponse: Equatable, Sendable {
    public let status: Int
    /// The body's message type, if the body is a spec message.
    public let message: String?
    public let contentType: String?

    public init(status: Int, message: String?, contentType: String?) {
        self.status = status
        self.message = message
        self.contentType = contentType
    }
}

public struct Route: Equatable, Sendable {
    public let id: String
    public let method: String
    public let path: String
    /// How the caller authenticates (as protocol.yaml names it).
    public let auth: String
    /// The request body's message type, if any.
    public let request: String?
    /// Every status the route answers with.
    public let responses: [RouteResponse]

    public init(id: String, method: String, path: String, auth: String, request: String?, responses: [RouteResponse]) {
        self.id = id
        self.method = method
        self.path = path
        self.auth = auth
        self.request = request
        self.responses = responses
    }
}
