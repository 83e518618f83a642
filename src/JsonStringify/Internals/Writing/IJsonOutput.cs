namespace JsonStringify.Internals;

/// <summary>
/// What the walker tells its output, token by token: the seam between the spec algorithm and what is made of it. The
/// walker is generic over a struct that implements this (<see cref="Walker{TOutput}"/>), so the JIT compiles one walker
/// per output and every call below is direct and inlinable: the text path (<see cref="TextOutput"/>) runs the same code
/// it ran when the walker held a <see cref="JsonWriter"/>. Each output is a struct around the objects that keep its
/// state, created once per pooled walker. An output's destination is its own business, and typed: the entry hands it to
/// the output itself (e.g. <see cref="Utf8Output.WriteTo(Stream)"/>, <see cref="Utf8JsonWriterOutput.WriteTo"/>) before
/// the walk starts, and the walker never sees it. Nothing of the engine crosses this seam: names are strings, values
/// strings, doubles and the literals null, true and false.
/// </summary>
/// <typeparam name="TSelf">The output type itself.</typeparam>
internal interface IJsonOutput<TSelf>
    where TSelf : struct, IJsonOutput<TSelf>
{
    /// <summary>How many containers are open (the indentation level of a text output's current line).</summary>
    int Depth { get; }

    /// <summary>How much output the call has made, in the output's own unit (see docs/limits.md).</summary>
    long Length { get; }

    /// <summary>True once <see cref="Length"/> is past the longest the output may be.</summary>
    bool IsOverLimit { get; }

    /// <summary>
    /// Whether <see cref="WriteQuotedPropertyName"/> needs the plain name beside the quoted one: a text output writes
    /// the quoted name as it is, and the walker makes no plain name for it.
    /// </summary>
    static abstract bool NeedsPlainNames { get; }

    /// <summary>A new output with its own state, for a new walker.</summary>
    static abstract TSelf Create();

    /// <summary>How deep the walk may nest in this call's destination: at most <paramref name="maxDepth"/>.</summary>
    int LimitDepth(int maxDepth);

    /// <summary>Starts a call, into the destination the entry gave the output.</summary>
    void Start(string gap, long maxLength);

    /// <summary>The walk is over and succeeded: hand out whatever is still held.</summary>
    void Complete();

    /// <summary>Drops every reference taken for the call, whether or not it succeeded.</summary>
    void Reset();

    /// <summary>null, true or false.</summary>
    void WriteLiteral(JsonLiteral literal);

    void WriteNumber(double value);

    /// <summary>
    /// A number of an array whose numbers change sign and length at random: what <see cref="WriteNumber"/> writes, by
    /// a path that does not branch on them where the output has one.
    /// </summary>
    void WriteErraticNumber(double value);

    void WriteString(string value);

    /// <summary>Text written as it is: JSON.rawJSON's, or a host serializer's.</summary>
    void WriteRaw(string text);

    void StartObject();

    /// <summary>A property's name, as the plain string, with the separator before it.</summary>
    void WritePropertyName(string name, bool first);

    /// <summary>
    /// A property's name already quoted and followed by ':' (one string per hidden class or property list, so outputs
    /// may cache by its reference), and the plain name, which is null unless <see cref="NeedsPlainNames"/>.
    /// </summary>
    void WriteQuotedPropertyName(string quotedWithColon, string? name, bool first);

    void EndObject(bool empty);

    void StartArray();

    /// <summary>Before an element: a comma unless it is the first, then the line break and indentation.</summary>
    void WriteSeparator(bool first);

    void EndArray(bool empty);

    void WriteEmptyArray();

    /// <summary>An object with no properties, written whole: it opens no container.</summary>
    void WriteEmptyObject();
}
