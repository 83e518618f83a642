using System.Buffers;
using System.Diagnostics;
using System.Reflection;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Runtime;

namespace JsonStringify.Tests;

/// <summary>
/// Generated CLR host values (see <see cref="HostValueGenerator"/>) serialized by us and by Jint's own serializer, from
/// C# through every sink and from script, compact and indented, with no replacer, a replacer function and a replacer
/// list, with Options.Interop.SerializeToJson set and not set. The two must agree but for the documented differences
/// below.
/// </summary>
public class HostValueDifferentialTests
{
    private const int Seed = 20261127;
    private const int Shapes = 300;

    // Every way ours may differ from Jint on host values, each a row of docs/semantics.md ("Where we differ from Jint
    // 4.18.0's serializer") with its reason. A row explains a pair of outcomes it recognises; any other difference
    // fails. Where Jint stops with an error that ours does not make, ours goes on and may meet what Jint never reached
    // (a getter or indexer that throws, a script error, a cycle), but never a RangeError, which would be a cycle that
    // ours missed, and never an exception thrown by our own code, which would be a fault of ours.
    private static readonly DocumentedDifference[] s_documented =
    [
        new(
            "integers from 2^53 to 2^63",
            "Jint writes all of an integer's digits; Number::toString writes the shortest that round-trip (2**55 is 36028797018963970)",
            (jint, ours) => jint.Text is not null && ours.Text is not null && EqualExceptLargeIntegers(jint.Text, ours.Text)),
        new(
            "the message of a cycle's TypeError",
            "ours is worded as V8 words it and names the circle; Jint's is 'Cyclic reference detected.'",
            (jint, ours) => jint.Error == "TypeError: Cyclic reference detected." && IsCycle(ours)),
        new(
            "two wrappers of equal (not identical) CLR objects",
            "Jint's cycle check compares wrappers with Equals; the spec's stack holds objects, which are the same only when identical",
            (jint, ours) => jint.Error == "TypeError: Cyclic reference detected." && !IsCycle(ours) && GoesOn(ours)),
        new(
            "a toJSON that is a proxy over a non-callable object",
            "IsCallable of such a proxy is false, so SerializeJSONProperty does not call it; Jint calls it and throws",
            (jint, ours) => jint.Error == "TypeError: Proxy target is not a function" && ours.Error != jint.Error && GoesOn(ours)),

        // Only where Jint's own Number::toString is older: Jint 4.16.0 writes the smallest subnormals as 0, in String()
        // as in JSON; 4.17.0 and 4.18.0 do not.
        new(
            "Number.MIN_VALUE (5e-324) on Jint 4.16",
            "Jint 4.16's Number::toString gives 0 for the smallest subnormals; the spec gives 5e-324",
            (jint, ours) => jint.Text is not null && ours.Text is not null && JintWritesMinValueAsZero
                && ours.Text.Replace("5e-324", "0", StringComparison.Ordinal) is var normalized
                && (normalized == jint.Text || EqualExceptLargeIntegers(jint.Text, normalized)),
            AppliesToThisJint: JintWritesMinValueAsZero),
    ];

    // Whether the Jint the tests run on writes 5e-324 as 0 (4.16.0 does).
    private static bool JintWritesMinValueAsZero { get; } = WritesMinValueAsZero();

    private const string ReplacerFunction = "(function (k, v) { if (k === 'b') return undefined; if (typeof v === 'number') return v + 1; if (typeof v === 'string') return v + '!'; return v; })";

    private static readonly string s_replacerList = "['" + string.Join("', '", HostValueGenerator.Keys.Concat(["X", "Name", "Extra", "Next", "Child", "Count", "Explodes", "self"])) + "']";

    private static readonly string[] s_replacers = ["undefined", ReplacerFunction, s_replacerList];

    private static readonly string[] s_spaces = ["undefined", "2"];

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void GeneratedHostValuesMatchJintFromCSharpOnEverySink(bool hostSerializer)
    {
        using var engine = new Engine(o => Configure(o, hostSerializer));
        var builtin = new Jint.Native.Json.JsonSerializer(engine);
        var ours = new JsonSerializer(engine);
        var explained = new int[s_documented.Length];
        JsValue[] replacers = s_replacers.Select(script => engine.Evaluate(script)).ToArray();
        JsValue[] spaces = s_spaces.Select(script => engine.Evaluate(script)).ToArray();
        for (int shape = 0; shape < Shapes; shape++)
        {
            JsValue value = JsValue.FromObject(engine, new HostValueGenerator(Seed + shape, engine).NextTree());
            for (int r = 0; r < replacers.Length; r++)
            {
                foreach (JsValue space in spaces)
                {
                    JsValue replacer = replacers[r];
                    Outcome expected = Capture(() => builtin.Serialize(value, replacer, space) is JsString s ? s.ToString() : null);
                    Outcome utf8Expected = expected with { Text = expected.Text is null ? null : Encoding.UTF8.GetString(Encoding.UTF8.GetBytes(expected.Text)) };
                    string where = $"shape {shape} (seed {Seed + shape}), replacer {s_replacers[r]}, space {space}, SerializeToJson {(hostSerializer ? "set" : "not set")}";
                    Compare(expected, Capture(() => ours.SerializeToString(value, replacer, space)), where + ", string", explained);
                    Compare(utf8Expected, Capture(() =>
                    {
                        var buffer = new ArrayBufferWriter<byte>();
                        return ours.Serialize(value, replacer, space, buffer) ? Encoding.UTF8.GetString(buffer.WrittenSpan) : null;
                    }), where + ", IBufferWriter<byte>", explained);
                    Compare(utf8Expected, Capture(() =>
                    {
                        using var stream = new MemoryStream();
                        return ours.Serialize(value, replacer, space, stream) ? Encoding.UTF8.GetString(stream.ToArray()) : null;
                    }), where + ", Stream", explained);
                    Compare(expected, Capture(() =>
                    {
                        using var writer = new StringWriter();
                        return ours.Serialize(value, replacer, space, writer) ? writer.ToString() : null;
                    }), where + ", TextWriter", explained);
                }
            }
        }

        AssertEveryRowExplainedSomething(explained);
    }

    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void GeneratedHostValuesMatchJintFromScript(bool hostSerializer)
    {
        using Engine ours = Js.Ours(o => Configure(o, hostSerializer));
        using Engine builtin = Js.Builtin(o => Configure(o, hostSerializer));
        var explained = new int[s_documented.Length];
        for (int shape = 0; shape < Shapes; shape++)
        {
            ours.SetValue("v", new HostValueGenerator(Seed + shape, ours).NextTree());
            builtin.SetValue("v", new HostValueGenerator(Seed + shape, builtin).NextTree());
            foreach (string replacer in s_replacers)
            {
                foreach (string space in s_spaces)
                {
                    string script = $"JSON.stringify(v, {replacer}, {space})";
                    Compare(
                        Capture(() => Run(builtin, script)),
                        Capture(() => Run(ours, script)),
                        $"shape {shape} (seed {Seed + shape}), SerializeToJson {(hostSerializer ? "set" : "not set")}: {script}",
                        explained);
                }
            }
        }

        AssertEveryRowExplainedSomething(explained);
    }

    private static void Configure(Options options, bool hostSerializer)
    {
        if (hostSerializer)
        {
            options.Interop.SerializeToJson = HostJson;
        }
    }

    // Options.Interop.SerializeToJson: a text naming the CLR type, the gap and the indentation it was given; nothing
    // for a Guid (null) or a TimeSpan ("").
    private static string HostJson(object? target, string gap, string? indent) => target switch
    {
        Guid => null!,
        TimeSpan => "",
        _ => $"{{\"clr\":\"{target?.GetType().Name}\",\"gap\":{gap.Length},\"indent\":{indent?.Length ?? -1}}}",
    };

    private static string? Run(Engine engine, string script) => engine.Evaluate(script) is JsString s ? s.ToString() : null;

    private static void Compare(Outcome jint, Outcome ours, string where, int[] explained)
    {
        if (jint == ours)
        {
            return;
        }

        int row = Array.FindIndex(s_documented, d => d.Explains(jint, ours));
        if (row < 0)
        {
            Assert.Fail($"{where}\nJint: {jint}\nours: {ours}");
        }

        explained[row]++;
    }

    // A row no generated value needs is either dead or a sign that the generator lost a kind of value.
    private static void AssertEveryRowExplainedSomething(int[] explained)
    {
        for (int i = 0; i < s_documented.Length; i++)
        {
            Assert.True(explained[i] > 0 || !s_documented[i].AppliesToThisJint, $"no generated value showed '{s_documented[i].Case}'");
        }
    }

    private static bool IsCycle(Outcome ours) => ours.Error?.StartsWith("TypeError: Converting circular structure to JSON", StringComparison.Ordinal) == true;

    private static bool IsRangeError(Outcome ours) => ours.Error?.StartsWith("RangeError", StringComparison.Ordinal) == true;

    // What ours may come to where it goes on past Jint's error: text, a script's error but a RangeError, or an
    // exception of host code that Jint's interop called.
    private static bool GoesOn(Outcome ours) =>
        ours.Text is not null || ours.ThrownBy == Thrower.Script && !IsRangeError(ours) || ours.ThrownBy == Thrower.Engine;

    private static Outcome Capture(Func<string?> serialize)
    {
        try
        {
            return new Outcome(serialize() ?? "undefined", null, Thrower.None);
        }
        catch (JavaScriptException e)
        {
            return new Outcome(null, Js.ErrorText(e), Thrower.Script);
        }
        catch (Exception e) when (e is not Xunit.Sdk.XunitException)
        {
            return new Outcome(null, e.GetType().Name + ": " + e.Message, ThrownBy(e));
        }
    }

    private static bool EqualExceptLargeIntegers(string expected, string actual)
    {
        try
        {
            return JsonText.AssertEqualExceptLargeIntegers(expected, actual) > 0;
        }
        catch (Xunit.Sdk.XunitException)
        {
            return false;
        }
    }

    // Who threw a CLR exception: Jint, or host code that Jint's interop called (the innermost frame of Jint's or ours
    // is Jint's), or our own code (ours is; a failed Debug.Assert of ours too).
    private static Thrower ThrownBy(Exception e)
    {
        Assembly ours = typeof(JsonSerializer).Assembly;
        Assembly jint = typeof(Engine).Assembly;
        foreach (StackFrame frame in new StackTrace(e, fNeedFileInfo: false).GetFrames())
        {
            Assembly? assembly = frame.GetMethod()?.DeclaringType?.Assembly;
            if (assembly == ours)
            {
                return Thrower.Ours;
            }

            if (assembly == jint)
            {
                return Thrower.Engine;
            }
        }

        return Thrower.Ours;
    }

    private enum Thrower
    {
        None,
        Script,
        Engine,
        Ours,
    }

    // Text, or an error: a script's (a JavaScriptException), or a CLR exception's type and message, and who threw it.
    private readonly record struct Outcome(string? Text, string? Error, Thrower ThrownBy);

    private static bool WritesMinValueAsZero()
    {
        using var engine = new Engine();
        return new Jint.Native.Json.JsonSerializer(engine).Serialize(JsNumber.Create(double.Epsilon), JsValue.Undefined, JsValue.Undefined).ToString() == "0";
    }

    private sealed record DocumentedDifference(string Case, string Reason, Func<Outcome, Outcome, bool> Explains, bool AppliesToThisJint = true);
}
