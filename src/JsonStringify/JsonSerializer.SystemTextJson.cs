using System.Text.Json;
using System.Text.Json.Nodes;
using Jint.Native;
using JsonStringify.Internals;

namespace JsonStringify;

/// <remarks>
/// The System.Text.Json bridge: the same walk as every other overload (toJSON, the replacer, key order, what is
/// skipped, the errors), into a caller's <see cref="Utf8JsonWriter"/>, into <see cref="JsonNode"/>s built directly, or
/// into a <see cref="JsonElement"/>. See docs/system-text-json.md.
/// </remarks>
public sealed partial class JsonSerializer
{
    /// <summary>
    /// Writes <c>JSON.stringify(value)</c> into <paramref name="writer"/> as one JSON value, so that it composes with
    /// what the writer already holds (after a <c>WritePropertyName</c>, inside an array, or as the root).
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="writer">The destination; its options set the layout, its encoder the escaping; it is not
    /// flushed.</param>
    /// <returns><see langword="true"/> if a value was written; <see langword="false"/> if the value has no JSON form
    /// (then nothing was written, and the writer may be left expecting a value).</returns>
    public bool Serialize(JsValue value, Utf8JsonWriter writer) => Serialize(value, JsValue.Undefined, JsValue.Undefined, writer);

    /// <summary>
    /// Writes <c>JSON.stringify(value, replacer, space)</c> into <paramref name="writer"/> as one JSON value. The
    /// values written are JSON.stringify's, numbers with its digits; the layout is the writer's, and strings are
    /// escaped by its encoder, so the text may differ from JSON.stringify's while the JSON value is the same. Nesting
    /// deeper than the writer's <see cref="JsonWriterOptions.MaxDepth"/> allows is a <c>RangeError</c>. On an exception
    /// the document is unfinished: the writer holds the tokens written before it, containers left open.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list, or <see cref="JsValue.Undefined"/>.</param>
    /// <param name="space">Must indent nothing (undefined, null, 0 or ""): the writer's options set the layout.</param>
    /// <param name="writer">The destination; it is not flushed.</param>
    /// <returns><see langword="true"/> if a value was written; <see langword="false"/> if the value has no JSON
    /// form.</returns>
    /// <exception cref="ArgumentException"><paramref name="space"/> would indent.</exception>
    public bool Serialize(JsValue value, JsValue replacer, JsValue space, Utf8JsonWriter writer)
    {
        ArgumentNullException.ThrowIfNull(value);
        ArgumentNullException.ThrowIfNull(writer);

        // Token by token: the writer lays out and escapes each one with its own options and encoder.
        Walker<Utf8JsonWriterOutput> walker = WalkerPool.Rent<Utf8JsonWriterOutput>();
        try
        {
            walker.Output.WriteTo(writer);
            return Run(walker, value, replacer, space, _options.MaxLength);
        }
        finally
        {
            WalkerPool.Return(walker);
        }
    }

    /// <summary>
    /// Builds the <see cref="JsonNode"/> of <c>JSON.stringify(value, replacer)</c> directly, with no JSON text in
    /// between. Numbers are <see cref="JsonValue"/>s of the exact double (<c>GetValue&lt;double&gt;()</c>) that write
    /// JavaScript's digits; a JSON null is a null node, as in System.Text.Json.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list; <see langword="null"/> for none.</param>
    /// <returns>The node, or <see langword="null"/> when the value has no JSON form or is JSON null.</returns>
    public JsonNode? ToJsonNode(JsValue value, JsValue? replacer = null)
    {
        TryToJsonNode(value, replacer, out JsonNode? node);
        return node;
    }

    // ToJsonNode, telling JSON null (true, and a null node) from no JSON form (false).
    internal bool TryToJsonNode(JsValue value, JsValue? replacer, out JsonNode? node)
    {
        ArgumentNullException.ThrowIfNull(value);
        Walker<JsonNodeOutput> walker = WalkerPool.Rent<JsonNodeOutput>();
        try
        {
            // No text is made: the string path's limit still bounds an array whose shortest text could not fit.
            long maxLength = Math.Min(_options.MaxLength, JsonConstants.MaxStringLength);
            bool written = Run(walker, value, replacer, null, maxLength);
            node = written ? walker.Output.Result : null;
            return written;
        }
        finally
        {
            WalkerPool.Return(walker);
        }
    }

    /// <summary>
    /// The <see cref="JsonElement"/> of <c>JSON.stringify(value, replacer)</c>: our UTF-8 goes into a pooled buffer,
    /// and the element is parsed from it into a document of its own, which needs no disposing (as
    /// <see cref="JsonElement.ParseValue"/> makes); only that document is allocated.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list; <see langword="null"/> for none.</param>
    /// <returns>The element (of kind <see cref="JsonValueKind.Null"/> for JSON null), or <see langword="null"/> when
    /// the value has no JSON form.</returns>
    public JsonElement? ToJsonElement(JsValue value, JsValue? replacer = null)
    {
        ArgumentNullException.ThrowIfNull(value);
        Walker<Utf8Output> walker = WalkerPool.Rent<Utf8Output>();
        PooledBufferWriter buffer = PooledBufferWriter.Rent();
        try
        {
            // The text must fit one buffer: the string path's limit.
            long maxLength = Math.Min(_options.MaxLength, JsonConstants.MaxStringLength);
            walker.Output.WriteTo(buffer);
            if (!Run(walker, value, replacer, null, maxLength))
            {
                return null;
            }

            var reader = new Utf8JsonReader(buffer.WrittenSpan, new JsonReaderOptions { MaxDepth = _options.MaxDepth });
            return JsonElement.ParseValue(ref reader);
        }
        finally
        {
            WalkerPool.Return(walker);
            PooledBufferWriter.Return(buffer);
        }
    }
}
