using System.Diagnostics;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using JsonStringify.Internals;

namespace JsonStringify;

/// <summary>
/// Serializes Jint values to JSON text with the exact semantics of ECMA-262 <c>JSON.stringify</c>: toJSON,
/// replacer functions and property lists, space, boxed primitives, proxies and <c>JSON.rawJSON</c>. Output goes into
/// pooled buffers, so a call allocates little beyond its result.
/// </summary>
/// <remarks>
/// One instance serves one engine and can be reused for any number of calls, by one thread at a time, as the engine
/// itself: while a call is in progress, a call from another thread (to any serializer of the engine, or to the
/// <c>JSON.stringify</c> that UseJsonStringify installed) throws an <see cref="InvalidOperationException"/>, and a call
/// from the same thread (a toJSON that calls <c>JSON.stringify</c>) goes ahead. A call from host code is one unit of
/// work for the engine's constraints (timeout, memory, statements): they count from its start, whatever toJSON,
/// replacers, getters or proxy traps it runs; a call from a script is part of that script's work. Errors are thrown
/// as <see cref="JavaScriptException"/>: a <c>TypeError</c> for a cycle or a BigInt, and a <c>RangeError</c> for output
/// too long for its result (see <see cref="JsonSerializerOptions.MaxLength"/>), for nesting deeper than
/// <see cref="JsonSerializerOptions.MaxDepth"/>, or for calls to <c>JSON.stringify</c> from toJSON or replacers nested
/// too deep for the thread's stack. Exceptions thrown by toJSON, getters, replacers and proxy traps reach the caller
/// unchanged.
/// </remarks>
public sealed partial class JsonSerializer
{
    private static readonly string[] s_spaces = CreateSpaces();

    private readonly JsonSerializerOptions _options;

    private Options? _engineOptions;
    private ShapeCacheEntry[]? _shapeCache = new ShapeCacheEntry[JsonConstants.ShapeCacheSize];

    // The replacer property list of the last call that had one, for the next such call to reuse.
    private PropertyList? _lastPropertyList;

    /// <summary>Creates a serializer for <paramref name="engine"/> with the default options.</summary>
    /// <param name="engine">The engine whose values are serialized and in which toJSON and replacers run.</param>
    public JsonSerializer(Engine engine)
        : this(engine, null)
    {
    }

    /// <summary>Creates a serializer for <paramref name="engine"/>.</summary>
    /// <param name="engine">The engine whose values are serialized and in which toJSON and replacers run.</param>
    /// <param name="options">The settings to use; <see langword="null"/> means
    /// <see cref="JsonSerializerOptions.Default"/>.</param>
    public JsonSerializer(Engine engine, JsonSerializerOptions? options)
    {
        ArgumentNullException.ThrowIfNull(engine);
        Engine = engine;
        _options = options ?? JsonSerializerOptions.Default;
        Reader = _options.EnableFastPath ? ValueReader.For(_options.FastPathAssumptions) : ValueReader.Public;
        _gate = EngineGate.For(engine);
    }

    internal JsonSerializer(Engine engine, JsonSerializerOptions? options, Options engineOptions)
        : this(engine, options)
    {
        _engineOptions = engineOptions;
    }

    /// <summary>
    /// Whether this serializer reads plain objects or dense arrays through Jint's internals, the fast path. It does
    /// when <see cref="JsonSerializerOptions.EnableFastPath"/> is set and the internals passed their self-tests on
    /// this Jint release; otherwise everything goes through Jint's public API, with identical output.
    /// </summary>
    public bool IsFastPathActive => Reader.ReadsInternals;

    /// <summary>
    /// Why part or all of the fast path is off for this serializer, or <see langword="null"/> when all of it is on.
    /// Each part rests on an assumption about Jint's internals that is self-tested once per process; the text names
    /// every assumption that failed on this Jint release and why, one per line, or says that
    /// <see cref="JsonSerializerOptions.EnableFastPath"/> is off. The output is the same either way, only slower. The
    /// first read runs the self-tests not yet run (a few tens of milliseconds once per process); each failure is also
    /// reported once per process as a warning of the <c>JsonStringify</c> event source.
    /// </summary>
    public string? FastPathDisabledReason =>
        _options.EnableFastPath
            ? Reader.DescribeDisabledParts()
            : "JsonSerializerOptions.EnableFastPath is false: Jint's public API is used, and its internals only for Jint's "
                + "host conventions that the public API does not reach (Engine.Options, a proxy's target, a host object's "
                + "answer to whether it has an enumerable key)."
                + (Reader.DescribeDisabledParts() is { } failures ? Environment.NewLine + failures : string.Empty);

    internal Engine Engine { get; }

    /// <summary>This serializer's cache of hidden-class layouts, or null while a call holds it.</summary>
    /// <remarks>Only the thread inside the engine's gate calls it, so plain reads and writes do.</remarks>
    internal ShapeCacheEntry[]? RentShapeCache()
    {
        Debug.Assert(_gate.IsHeldByCurrentThread, "the cache is only used inside the gate");
        ShapeCacheEntry[]? cache = _shapeCache;
        _shapeCache = null;
        return cache;
    }

    internal void ReturnShapeCache(ShapeCacheEntry[] cache)
    {
        Debug.Assert(_gate.IsHeldByCurrentThread, "the cache is only used inside the gate");
        _shapeCache = cache;
    }

    internal ValueReader Reader { get; }

    // Jint's Options.Interop.SerializeToJson, read on every call because hosts may set it after creating the engine.
    // The engine keeps its options internal: they come from the Options form of UseJsonStringify, or else from Jint.
    internal Options.SerializeToJsonDelegate? HostSerializer =>
        (_engineOptions ??= Reader.TryGetEngineOptions(Engine))?.Interop.SerializeToJson;

    /// <summary>Serializes <paramref name="value"/> as <c>JSON.stringify(value)</c> does.</summary>
    /// <param name="value">The value to serialize.</param>
    /// <returns>The JSON text as a <see cref="JsString"/>, or <see cref="JsValue.Undefined"/> when the value has no
    /// JSON form (undefined, a function or a symbol).</returns>
    public JsValue Serialize(JsValue value) => Serialize(value, JsValue.Undefined, JsValue.Undefined);

    /// <summary>
    /// Serializes <paramref name="value"/> as <c>JSON.stringify(value, replacer, space)</c> does. The result is a
    /// JavaScript string, so it is held to the longest one V8 and Jint allow (536,870,888 chars): longer text is a
    /// <c>RangeError</c> ("Invalid string length"), as soon as it is passed.
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A function called for every key and value, an array of the property names to include,
    /// or <see cref="JsValue.Undefined"/> or <see cref="JsValue.Null"/> for none.</param>
    /// <param name="space">The indentation: a number of spaces (at most 10), a string (its first 10 chars), or
    /// <see cref="JsValue.Undefined"/> or <see cref="JsValue.Null"/> for compact output.</param>
    /// <returns>The JSON text as a <see cref="JsString"/>, or <see cref="JsValue.Undefined"/> when the value has no
    /// JSON form.</returns>
    public JsValue Serialize(JsValue value, JsValue replacer, JsValue space)
    {
        string? json = SerializeToStringWithin(value, replacer, space, JsonConstants.MaxJsStringLength);
        return json is null ? JsValue.Undefined : new JsString(json);
    }

    /// <summary>
    /// Serializes <paramref name="value"/> as <c>JSON.stringify(value, replacer, space)</c> does, to a .NET string,
    /// which may be longer than a JavaScript string: text past the longest .NET string (1,073,741,791 chars) is a
    /// <c>RangeError</c> ("Invalid string length").
    /// </summary>
    /// <param name="value">The value to serialize.</param>
    /// <param name="replacer">A replacer function or property list; <see langword="null"/> for none.</param>
    /// <param name="space">The indentation; <see langword="null"/> for compact output.</param>
    /// <returns>The JSON text, or <see langword="null"/> when the value has no JSON form.</returns>
    public string? SerializeToString(JsValue value, JsValue? replacer = null, JsValue? space = null) =>
        SerializeToStringWithin(value, replacer, space, JsonConstants.MaxStringLength);

    // The string overloads: the output is a string of at most longestString chars (a .NET string's limit, or a
    // JavaScript string's for a JsString result), and of MaxLength.
    private string? SerializeToStringWithin(JsValue value, JsValue? replacer, JsValue? space, int longestString)
    {
        ArgumentNullException.ThrowIfNull(value);
        Walker<TextOutput> walker = WalkerPool.Rent<TextOutput>();
        try
        {
            long maxLength = Math.Min(_options.MaxLength, longestString);
            StringSink result = walker.Output.WriteToString(_options.CharPool);
            return Run(walker, value, replacer, space, maxLength) ? result.Result : null;
        }
        finally
        {
            // Resetting the walker gives the chunks, if any were needed, back to the pool.
            WalkerPool.Return(walker);
        }
    }

    // JSON.stringify steps 4-12 into the destination the walker's output was given; false when the value has no JSON
    // form (then nothing was written).
    private bool Walk(IWalker walker, JsValue value, JsValue? replacer, JsValue? space, long maxLength)
    {
        // Steps 4-8, in order: the replacer (a property list is read now), then space.
        JsValue? replacerFunction = null;
        PropertyList? propertyList = null;
        if (replacer is ObjectInstance replacerObject)
        {
            if (replacerObject.IsCallable())
            {
                replacerFunction = replacerObject;
            }
            else if (Reader.IsArray(replacerObject, Engine))
            {
                propertyList = ReadPropertyList(replacerObject);
            }
        }

        string gap = space is null ? string.Empty : ComputeGap(space);
        walker.Start(this, replacerFunction, propertyList, gap, maxLength, _options.MaxDepth);
        return walker.SerializeRoot(value);
    }

    // JSON.stringify step 4.b: strings, numbers, and String and Number objects, in order (PropertyList drops the
    // duplicates). Items are compared with the last list's as they are read; when all match, that list serves again.
    private PropertyList ReadPropertyList(ObjectInstance replacer)
    {
        PropertyList? last = _lastPropertyList;
        string[] lastItems = last?.Items ?? [];
        List<string>? items = null;
        int count = 0;
        ulong length = ValueReader.GetLength(replacer);
        Span<char> number = stackalloc char[JsonConstants.NumberBufferLength];
        for (ulong k = 0; k < length; k++)
        {
            JsValue element = ValueReader.GetElement(replacer, k);
            string? text = element.Type switch
            {
                Types.String => element.ToString(),
                Types.Object when element is IJsPrimitive { Type: Types.String or Types.Number } => TypeConverter.ToString(element),
                _ => null,
            };

            scoped ReadOnlySpan<char> item;
            if (text is not null)
            {
                item = text;
            }
            else if (element.Type == Types.Number)
            {
                item = FormatKey(element.AsNumber(), number);
            }
            else
            {
                continue;
            }

            if (items is null)
            {
                if (count < lastItems.Length && item.SequenceEqual(lastItems[count]))
                {
                    count++;
                    continue;
                }

                items = [.. lastItems.AsSpan(0, count)];
            }

            items.Add(text ?? new string(item));
            count++;
        }

        if (last is not null && items is null && count == lastItems.Length)
        {
            return last;
        }

        var list = new PropertyList(items is null ? lastItems[..count] : [.. items]);
        _lastPropertyList = list;
        return list;
    }

    private static ReadOnlySpan<char> FormatKey(double value, Span<char> buffer)
    {
        if (double.IsNaN(value))
        {
            return "NaN";
        }

        if (double.IsInfinity(value))
        {
            return value > 0 ? "Infinity" : "-Infinity";
        }

        return buffer[..NumberFormatter.Format(value, buffer)];
    }

    // JSON.stringify steps 5-8: Number and String objects are coerced first (observably), then clamped to 10.
    private static string ComputeGap(JsValue space)
    {
        if (space is IJsPrimitive { Type: Types.Number })
        {
            space = JsNumber.Create(TypeConverter.ToNumber(space));
        }
        else if (space is IJsPrimitive { Type: Types.String })
        {
            space = new JsString(TypeConverter.ToString(space));
        }

        if (space.Type == Types.Number)
        {
            double count = Math.Min(JsonConstants.MaxGapLength, TypeConverter.ToIntegerOrInfinity(space));
            return count < 1 ? string.Empty : s_spaces[(int)count];
        }

        if (space.Type == Types.String)
        {
            string text = space.ToString();
            return text.Length <= JsonConstants.MaxGapLength ? text : text[..JsonConstants.MaxGapLength];
        }

        return string.Empty;
    }

    private static string[] CreateSpaces()
    {
        var spaces = new string[JsonConstants.MaxGapLength + 1];
        for (int i = 0; i < spaces.Length; i++)
        {
            spaces[i] = new string(' ', i);
        }

        return spaces;
    }
}
