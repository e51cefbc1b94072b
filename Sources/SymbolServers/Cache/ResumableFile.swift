/// A download's file that a later attempt resumes: see ``SymbolDownloadCache/resumableFile(uuid:source:)``.
package struct ResumableFile: Sendable {
    package let path: String
    package let descriptor: Int32
    /// Bytes already held, which the next request starts after.
    package let held: Int64
    /// The `ETag` or `Last-Modified` the held bytes came with, sent as `If-Range`.
    package let validator: String?
}
