using System.Buffers;
using System.Runtime.InteropServices;
using System.Threading.Channels;
using Jint.Native;
using JsonStringify.Internals;

namespace JsonStringify;

/// <remarks>
/// The overloads here write UTF-8 (or chars, for a <see cref="TextWriter"/>) as the walk goes, in chunks of a few
/// kilobytes, so memory stays small whatever the size of the document, and no UTF-16 copy of the document is ever
/// made. The bytes are exactly the UTF-8 encoding of what <see cref="SerializeToString"/> returns, with no byte order
/// mark. If the walk fails midway (a toJSON throws, a cycle, a limit), the exception reaches the caller and the
/// destination keeps what was written before it: a prefix of the document, which is not valid JSON. Nothing is
/// written at all when the value has no JSON form.
/// </remarks>
public sealed partial class JsonSerializer
{
    /// <summary>Writes <c>JSON.stringify(value)</c> as UTF-8 to <paramref name="writer"/>.</summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="writer">The destination; the caller owns it and reads what was advanced. The JSON is written in the
    /// memory its <c>GetMemory</c> returns before it is advanced, so nothing else may write to it until the call returns
    /// (not even a nested call made from a <c>toJSON</c>).</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    /// <exception cref="InvalidOperationException">The writer's <c>GetSpan</c> returned fewer bytes than it was asked
    /// for, which breaks the contract of <see cref="IBufferWriter{T}"/>; what was advanced before stays
    /// written.</exception>
    public bool Serialize(JsValue value, IBufferWriter<byte> writer) => Serialize(value, JsValue.Undefined, JsValue.Undefined, writer);

    /// <summary>Writes <c>JSON.stringify(value, replacer, space)</c> as UTF-8 to <paramref name="writer"/>.</summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list, or <see cref="JsValue.Undefined"/>.</param>
    /// <param name="space">The indentation, or <see cref="JsValue.Undefined"/> for compact output.</param>
    /// <param name="writer">The destination; the caller owns it and reads what was advanced. The JSON is written in the
    /// memory its <c>GetMemory</c> returns before it is advanced, so nothing else may write to it until the call returns
    /// (not even a nested call made from a <c>toJSON</c>).</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    /// <exception cref="InvalidOperationException">The writer's <c>GetSpan</c> returned fewer bytes than it was asked
    /// for, which breaks the contract of <see cref="IBufferWriter{T}"/>; what was advanced before stays
    /// written.</exception>
    public bool Serialize(JsValue value, JsValue replacer, JsValue space, IBufferWriter<byte> writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        return WalkInto<Utf8Output, IBufferWriter<byte>>(writer, static (output, destination) => output.WriteTo(destination), value, replacer, space);
    }

    /// <summary>Writes <c>JSON.stringify(value)</c> as UTF-8 to <paramref name="stream"/>, in chunks.</summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="stream">The destination; it is neither flushed nor closed.</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    public bool Serialize(JsValue value, Stream stream) => Serialize(value, JsValue.Undefined, JsValue.Undefined, stream);

    /// <summary>
    /// Writes <c>JSON.stringify(value, replacer, space)</c> as UTF-8 to <paramref name="stream"/>, in chunks.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list, or <see cref="JsValue.Undefined"/>.</param>
    /// <param name="space">The indentation, or <see cref="JsValue.Undefined"/> for compact output.</param>
    /// <param name="stream">The destination; it is neither flushed nor closed.</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    public bool Serialize(JsValue value, JsValue replacer, JsValue space, Stream stream)
    {
        ArgumentNullException.ThrowIfNull(stream);
        return WalkInto<Utf8Output, Stream>(stream, static (output, destination) => output.WriteTo(destination), value, replacer, space);
    }

    /// <summary>Writes <c>JSON.stringify(value)</c> as chars to <paramref name="writer"/>, in chunks.</summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="writer">The destination; it is neither flushed nor closed.</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    public bool Serialize(JsValue value, TextWriter writer) => Serialize(value, JsValue.Undefined, JsValue.Undefined, writer);

    /// <summary>
    /// Writes <c>JSON.stringify(value, replacer, space)</c> as chars to <paramref name="writer"/>, in chunks.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list, or <see cref="JsValue.Undefined"/>.</param>
    /// <param name="space">The indentation, or <see cref="JsValue.Undefined"/> for compact output.</param>
    /// <param name="writer">The destination; it is neither flushed nor closed.</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    public bool Serialize(JsValue value, JsValue replacer, JsValue space, TextWriter writer)
    {
        ArgumentNullException.ThrowIfNull(writer);
        return WalkInto<TextOutput, TextWriter>(writer, static (output, destination) => output.WriteTo(destination), value, replacer, space);
    }

    /// <summary>
    /// Writes <c>JSON.stringify(value)</c> as UTF-8 to <paramref name="stream"/>, writing asynchronously.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="stream">The destination; it is neither flushed nor closed.</param>
    /// <param name="cancellationToken">Stops the walk and the writes.</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled; the exception
    /// carries it.</exception>
    public Task<bool> SerializeAsync(JsValue value, Stream stream, CancellationToken cancellationToken = default) =>
        SerializeAsync(value, JsValue.Undefined, JsValue.Undefined, stream, cancellationToken);

    /// <summary>
    /// Writes <c>JSON.stringify(value, replacer, space)</c> as UTF-8 to <paramref name="stream"/>, writing
    /// asynchronously. The walk itself (and any toJSON, getter or replacer it runs) happens on a dedicated thread while
    /// this method awaits the writes; do not use the engine until the returned task completes. Called from inside a
    /// call on the same engine (a toJSON that writes a stream), it walks and writes synchronously before it returns.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list, or <see cref="JsValue.Undefined"/>.</param>
    /// <param name="space">The indentation, or <see cref="JsValue.Undefined"/> for compact output.</param>
    /// <param name="stream">The destination; it is neither flushed nor closed.</param>
    /// <param name="cancellationToken">Stops the walk and the writes.</param>
    /// <returns><see langword="true"/> if JSON was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    /// <exception cref="OperationCanceledException"><paramref name="cancellationToken"/> was cancelled; the exception
    /// carries it.</exception>
    public async Task<bool> SerializeAsync(
        JsValue value, JsValue replacer, JsValue space, Stream stream, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(stream);
        cancellationToken.ThrowIfCancellationRequested();

        // From inside a call on this engine (a toJSON, replacer or getter that writes a stream), the walk cannot move
        // to another thread while that call is in progress: it runs here, and writes synchronously.
        if (_gate.IsHeldByCurrentThread)
        {
            return Serialize(value, replacer, space, stream);
        }

        // Two chunks in flight at most: the walk waits for the writes, so memory stays bounded.
        var chunks = Channel.CreateBounded<ReadOnlyMemory<byte>>(
            new BoundedChannelOptions(2) { SingleReader = true, SingleWriter = true });
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        Task<bool> walk = Task.Factory.StartNew(
            () => WalkToChannel(value, replacer, space, chunks.Writer, stop.Token),
            CancellationToken.None,
            TaskCreationOptions.LongRunning | TaskCreationOptions.DenyChildAttach,
            TaskScheduler.Default);

        try
        {
            await foreach (ReadOnlyMemory<byte> chunk in chunks.Reader.ReadAllAsync(stop.Token).ConfigureAwait(false))
            {
                try
                {
                    await stream.WriteAsync(chunk, stop.Token).ConfigureAwait(false);
                }
                finally
                {
                    ReturnChunk(chunk);
                }
            }
        }
        catch (Exception e)
        {
            // The reader failed (the stream, or cancellation): stop the walk, let it unwind, and report the failure.
            await stop.CancelAsync().ConfigureAwait(false);
            await DrainAsync(chunks.Reader, walk).ConfigureAwait(false);
            ThrowIfCallerCancelled(e, cancellationToken);
            throw;
        }

        try
        {
            return await walk.ConfigureAwait(false);
        }
        catch (OperationCanceledException e)
        {
            ThrowIfCallerCancelled(e, cancellationToken);
            throw;
        }
    }

    // A cancellation that the caller asked for is reported with the caller's token, as .NET's own async methods report
    // it: the reads, the writes and the walk saw the token linked to it, which the exception they threw carries.
    private static void ThrowIfCallerCancelled(Exception e, CancellationToken cancellationToken)
    {
        if (e is OperationCanceledException canceled && canceled.CancellationToken != cancellationToken)
        {
            cancellationToken.ThrowIfCancellationRequested();
        }
    }

    private bool WalkToChannel(
        JsValue value, JsValue replacer, JsValue space, ChannelWriter<ReadOnlyMemory<byte>> chunks, CancellationToken cancellationToken)
    {
        try
        {
            return WalkInto<Utf8Output, (ChannelWriter<ReadOnlyMemory<byte>> chunks, CancellationToken cancellationToken)>(
                (chunks, cancellationToken),
                static (output, destination) => output.WriteTo(destination.chunks, destination.cancellationToken),
                value,
                replacer,
                space);
        }
        finally
        {
            chunks.TryComplete();
        }
    }

    // Rents a walker, points its output at the destination, walks, and gives the walker back on every path.
    private bool WalkInto<TOutput, TDestination>(
        TDestination destination, Action<TOutput, TDestination> writeTo, JsValue value, JsValue replacer, JsValue space)
        where TOutput : struct, IJsonOutput<TOutput>
    {
        ArgumentNullException.ThrowIfNull(value);
        Walker<TOutput> walker = WalkerPool.Rent<TOutput>();
        try
        {
            writeTo(walker.Output, destination);
            return Run(walker, value, replacer, space, _options.MaxLength);
        }
        finally
        {
            WalkerPool.Return(walker);
        }
    }

    private static async Task DrainAsync(ChannelReader<ReadOnlyMemory<byte>> chunks, Task walk)
    {
        try
        {
            await walk.ConfigureAwait(false);
        }
        catch (Exception)
        {
            // The walk was stopped because the reader failed; the reader's exception is the one to report.
        }

        while (chunks.TryRead(out ReadOnlyMemory<byte> chunk))
        {
            ReturnChunk(chunk);
        }
    }

    private static void ReturnChunk(ReadOnlyMemory<byte> chunk)
    {
        if (MemoryMarshal.TryGetArray(chunk, out ArraySegment<byte> segment) && segment.Array is { } array)
        {
            ArrayPool<byte>.Shared.Return(array);
        }
    }
}
