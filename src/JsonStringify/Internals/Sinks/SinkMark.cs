namespace JsonStringify.Internals;

/// <summary>A point in a <see cref="BufferWriterSink"/>'s output: chars given to it, and bytes written.</summary>
internal readonly record struct SinkMark(long Length, int Bytes);
