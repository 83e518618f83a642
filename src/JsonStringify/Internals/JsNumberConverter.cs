using System.Diagnostics;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;

namespace JsonStringify.Internals;

/// <summary>
/// Writes a double as JavaScript's Number::toString does (1e+21, 1e-7, 100000000000000000000), where System.Text.Json's
/// own converter writes .NET's round-trip form (1E+21, 1E-07, 1E+20). The JsonNode output's numbers are JsonValues of
/// the double with this converter: they hold the exact double (<c>GetValue&lt;double&gt;()</c>), and
/// <c>ToJsonString()</c> writes JSON.stringify's digits, the same text as a node parsed from our string output.
/// </summary>
internal sealed class JsNumberConverter : JsonConverter<double>
{
    /// <summary>
    /// The type info of every number node. Its options only serve to configure it (no reflection), and allow any depth:
    /// System.Text.Json counts a value's depth from where the writer stands, and the writer's own MaxDepth is the limit.
    /// </summary>
    public static JsonTypeInfo<double> TypeInfo { get; } = JsonMetadataServices.CreateValueInfo<double>(
        new System.Text.Json.JsonSerializerOptions { TypeInfoResolver = JsonTypeInfoResolver.Combine(), MaxDepth = int.MaxValue },
        new JsNumberConverter());

    public override double Read(ref Utf8JsonReader reader, Type typeToConvert, System.Text.Json.JsonSerializerOptions options) =>
        reader.GetDouble();

    public override void Write(Utf8JsonWriter writer, double value, System.Text.Json.JsonSerializerOptions options) =>
        WriteNumber(writer, value);

    /// <summary>A finite double as a JSON number with JavaScript's digits; integers below 2^53 through the writer's own
    /// integer path, whose digits are the same.</summary>
    public static void WriteNumber(Utf8JsonWriter writer, double value)
    {
        Debug.Assert(double.IsFinite(value), "JSON has no NaN or infinities");
        if (IsExactInteger(value))
        {
            writer.WriteNumberValue((long)value);
            return;
        }

        Span<char> chars = stackalloc char[JsonConstants.NumberBufferLength];
        int length = NumberFormatter.Format(value, chars);
        Span<byte> bytes = stackalloc byte[JsonConstants.NumberBufferLength];
        for (int i = 0; i < length; i++)
        {
            bytes[i] = (byte)chars[i];
        }

        // Number::toString's text is always a valid JSON number: no need for the writer to parse it again.
        writer.WriteRawValue(bytes[..length], skipInputValidation: true);
    }

    /// <summary>An integer below 2^53 in magnitude: Number::toString writes its plain digits, as a long is written.</summary>
    public static bool IsExactInteger(double value) => Math.Abs(value) < MaxExactInteger && Math.Floor(value) == value;

    // Integers below 2^53 are exact, and Number::toString writes them as plain digits, as the writer writes a long.
    private const double MaxExactInteger = 9007199254740992d;
}
