import NativeCodecs

/// A zstd dictionary of the blob store, trained on a sample of one account's mail and stored in the log
/// under its id; a blob compressed with it names the id in its header (`BlobCodec`), so it stays readable
/// whatever dictionaries come later.
package struct BlobDictionary: Sendable {
    /// The dictionary's id in the log (1, 2, ...).
    package let id: UInt32
    /// The digested dictionary.
    package let zstd: ZstdDictionary

    /// The dictionary `zstd` stored under `id`.
    package init(id: UInt32, zstd: ZstdDictionary) {
        self.id = id
        self.zstd = zstd
    }

    /// zstd level of blobs compressed with a dictionary (baked into the digested dictionary). Level 1, as
    /// the importer's plain zstd: on generated mail level 3 saved ~2 points of size (51.5% against 53.6% of
    /// raw) for 2.4x the compression time.
    package static let level: Int32 = 1
    /// The most sample bytes a dictionary is trained on (the training's time grows with them: ~0.04 s for 4 MB).
    package static let maxSampleBytes = 4 << 20
    /// The most messages sampled.
    package static let maxSamples = 1024
    /// The fewest messages and bytes worth training on.
    package static let minSamples = 16
    package static let minSampleBytes = 32 << 10
    /// The largest dictionary (zstd's default), and the fraction of the sample a dictionary may take:
    /// on a small first import a 110 KB dictionary would cost more than it saves.
    package static let maxDictionaryBytes = 112_640
    package static let sampleFraction = 8

    /// The dictionary size to train for `sampleBytes` of samples.
    package static func capacity(sampleBytes: Int) -> Int {
        min(maxDictionaryBytes, max(4096, sampleBytes / sampleFraction))
    }
}
