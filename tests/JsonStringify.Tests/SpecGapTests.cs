using System.Buffers;
using Jint;
using Jint.Native;
using Jint.Native.Object;
using Jint.Runtime;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// What V8 golden rows cannot show: both ways of deciding IsArray and of making a RangeError (through Jint's internals
/// and through the public fallback), the errors of limits only a host sets, and the check of an array's length
/// against MaxLength on every sink.
/// </summary>
public class SpecGapTests
{
    [Fact]
    public void IsArrayAndRangeErrorAccessorsPassTheirSelfTests()
    {
        Assert.True(FastPath.Holds(JintAssumption.IsArrayOperation));
        Assert.True(FastPath.Holds(JintAssumption.RangeErrorIntrinsic));
    }

    [Theory]
    [InlineData("[]", true)]
    [InlineData("Array.prototype", true)]
    [InlineData("new Proxy([1], {})", true)]
    [InlineData("new Proxy(new Proxy(new Proxy([], {}), {}), {})", true)]
    [InlineData("new Proxy(Array.prototype, {})", true)]
    [InlineData("new Proxy({}, {})", false)]
    [InlineData("new Proxy(new Proxy({length: 0}, {}), {})", false)]
    [InlineData("new Proxy(function () {}, {})", false)]
    [InlineData("Object.create([])", false)]
    [InlineData("(function () { return arguments; })()", false)]
    public void IsArrayIgnoresWhatScriptsDidToGlobals(string expression, bool expected)
    {
        using var engine = new Engine();
        engine.Execute("var isArray = Array.isArray; Array.isArray = function () { throw new Error('script-visible isArray ran'); };");
        var o = (ObjectInstance)engine.Evaluate(expression);
        engine.Execute("Array = null;");

        Assert.Equal(expected, PristineRealm.IsArray(o));
        Assert.Equal(expected, JintInternals.IsArray(o));
        Assert.Equal(expected, ValueReader.Allowing(JintAssumption.All).IsArray(o, engine));
        Assert.Equal(expected, ValueReader.Public.IsArray(o, engine));
    }

    [Fact]
    public void IsArrayOfARevokedProxyThrowsItsOwnRealmsTypeError()
    {
        using var engine = new Engine();
        engine.Execute("var T = TypeError; TypeError = SyntaxError; var r = Proxy.revocable([], {}); r.revoke(); var p = new Proxy(r.proxy, {});");
        JsValue typeError = engine.GetValue("T");
        foreach (string name in (string[])["r.proxy", "p"])
        {
            var proxy = (ObjectInstance)engine.Evaluate(name);
            foreach (Func<bool> isArray in (Func<bool>[])[
                () => PristineRealm.IsArray(proxy),
                () => JintInternals.IsArray(proxy),
            ])
            {
                var e = Assert.Throws<JavaScriptException>(() => isArray());
                Assert.Same(typeError, ((ObjectInstance)e.Error).Get("constructor"));
            }

            // Both readers throw with V8's words.
            foreach (ValueReader reader in (ValueReader[])[ValueReader.Allowing(JintAssumption.All), ValueReader.Public])
            {
                var e = Assert.Throws<JavaScriptException>(() => reader.IsArray(proxy, engine));
                Assert.Same(typeError, ((ObjectInstance)e.Error).Get("constructor"));
                Assert.Equal("Cannot perform 'IsArray' on a proxy that has been revoked", e.Message);
            }
        }
    }

    // V8 14.6 asks IsArray of the replacer before IsCallable (see docs/semantics.md), so a revoked proxy of a function
    // fails there; the spec takes it as the replacer function, which fails when it is called.
    [Theory]
    [InlineData("JSON.stringify(1, r.proxy)")]
    [InlineData("JSON.stringify({a: [1]}, new Proxy(r.proxy, {}), 2)")]
    public void ARevokedFunctionProxyAsTheReplacerFailsWhenCalled(string call)
    {
        using Engine engine = Js.Ours();
        Assert.Equal(
            "TypeError: Cannot perform 'apply' on a proxy that has been revoked",
            Js.Run(engine, "var r = Proxy.revocable(function (k, v) { return v; }, {}); r.revoke(); " + call));
    }

    [Theory]
    [InlineData(true)]
    [InlineData(false)]
    public void RangeErrorsNeverReadTheGlobalBinding(bool internals)
    {
        using var engine = new Engine();
        JsValue rangeError = engine.GetValue("RangeError");
        engine.Execute("Object.defineProperty(globalThis, 'RangeError', {get: function () { throw new Error('global read'); }});");

        ValueReader reader = internals ? ValueReader.Allowing(JintAssumption.All) : ValueReader.Public;
        var e = Assert.Throws<JavaScriptException>(() => Throw.RangeError(engine, reader, "the message"));
        var error = (ObjectInstance)e.Error;
        Assert.Same(rangeError.Get("prototype"), error.Prototype);
        Assert.Equal("the message", error.Get("message").ToString());
        Assert.Equal("RangeError: the message", Js.ErrorText(e));
    }

    // MaxDepth and MaxLength are the host's; their RangeErrors are the realm's all the same, on both paths.
    [Theory]
    [InlineData("(function () { var o = {}; o.toJSON = function () { return [o]; }; return o; })()", "Maximum call stack size exceeded")]
    [InlineData("[[[[[[[[[[[[]]]]]]]]]]]]", "Maximum call stack size exceeded")]
    [InlineData("'x'.repeat(100)", "Invalid string length")]
    [InlineData("new Array(30).fill(0)", "Invalid string length")]
    public void RangeErrorsOfHostLimitsComeFromTheRealm(string value, string message)
    {
        foreach (bool fastPath in (bool[])[true, false])
        {
            using var engine = new Engine(o => o.UseJsonStringify(new JsonSerializerOptions { MaxDepth = 10, MaxLength = 50, EnableFastPath = fastPath }));
            string script = "var R = RangeError; RangeError = SyntaxError; try { JSON.stringify(" + value + "); }"
                + " catch (e) { [e.name, e.constructor === R, e instanceof R, e.message].join('|') }";
            Assert.Equal("RangeError|true|true|" + message, Js.Run(engine, script));
        }
    }

    // An array of n elements writes at least 2n + 1 chars: when that is past the limit, nothing but toJSON and length
    // is read before the RangeError, on every sink. 49 zeros make 99 chars exactly.
    [Theory]
    [InlineData(49, 99, false)]
    [InlineData(50, 100, true)]
    [InlineData(50, 101, false)]
    [InlineData(0, 1, true)]
    public void AnArrayLongerThanTheLimitThrowsBeforeItsElementsAreRead(int length, long maxLength, bool throws)
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = maxLength });
        engine.Execute("var log = []; var p = new Proxy(new Array(" + length + ").fill(0), {get: function (t, k, r) { log.push(String(k)); return Reflect.get(t, k, r); }});");
        JsValue proxy = engine.GetValue("p");
        foreach (Action write in (Action[])[
            () => serializer.SerializeToString(proxy),
            () => serializer.Serialize(proxy, Stream.Null),
            () => serializer.Serialize(proxy, TextWriter.Null),
            () => serializer.Serialize(proxy, new ArrayBufferWriter<byte>()),
        ])
        {
            engine.Execute("log = [];");
            if (throws)
            {
                var e = Assert.Throws<JavaScriptException>(write);
                Assert.Equal("RangeError: Invalid string length", Js.ErrorText(e));
                Assert.Equal("toJSON,length", engine.Evaluate("log.join()").ToString());
            }
            else
            {
                write();
                Assert.Equal(2 + length, engine.Evaluate("log.length").AsNumber());
            }
        }
    }

    [Fact]
    public void TheLengthCheckCountsWhatIsAlreadyWritten()
    {
        using var engine = new Engine(o => o.UseJsonStringify(new JsonSerializerOptions { MaxLength = 100 }));
        string script = "var log = []; var p = new Proxy([1, 2, 3, 4, 5], {get: function (t, k, r) { log.push(String(k)); return Reflect.get(t, k, r); }});"
            + " var out = []; [84, 86].forEach(function (n) { log = []; try { out.push(JSON.stringify(['x'.repeat(n), p]).length); } catch (e) { out.push(e.name); } out.push(log.join()); }); out.join('|')";

        // ["xx…", is n + 4 chars, and [1,2,3,4,5] at least 11 more: 84 fits in 100 chars with the closing bracket, 86
        // cannot.
        Assert.Equal("100|toJSON,length,0,1,2,3,4|RangeError|toJSON,length", Js.Run(engine, script));
    }

    // The shortest text counts no char for an element that the host serializer may write as nothing.
    [Fact]
    public void AHostSerializerThatWritesNothingLowersTheBound()
    {
        using var engine = new Engine(o =>
        {
            o.Interop.SerializeToJson = (_, _, _) => string.Empty;
            o.UseJsonStringify(new JsonSerializerOptions { MaxLength = 60 });
        });
        engine.SetValue("thing", new Thing());
        Assert.Equal("[" + new string(',', 49) + "]", Js.Run(engine, "JSON.stringify(new Array(50).fill(thing))"));
        Assert.Equal("RangeError: Invalid string length", Js.Run(engine, "JSON.stringify(new Array(60).fill(thing))"));
    }

    // V8 14.6 indents with an empty gap here (see the README); the spec's ToIntegerOrInfinity gives 0, an empty gap,
    // and compact output.
    [Theory]
    [InlineData("0.5")]
    [InlineData("0.99")]
    [InlineData("new Number(0.5)")]
    public void ASpaceBetweenZeroAndOneIsCompact(string space)
    {
        using Engine engine = Js.Ours();
        Assert.Equal("{\"a\":[1]}", Js.Run(engine, "JSON.stringify({a: [1]}, null, " + space + ")"));
    }

    // V8 14.6 cuts a string space at its first U+0000 (see docs/semantics.md); the spec's gap is the string's first ten
    // code units, whatever they are.
    [Theory]
    [InlineData("'\\u0000'", "\0")]
    [InlineData("'x\\u0000y'", "x\0y")]
    [InlineData("new String('\\u0000\\u0000')", "\0\0")]
    [InlineData("'0123456789\\u0000'", "0123456789")]
    public void ASpaceWithANulIsTheGapAsItIs(string space, string gap)
    {
        using Engine engine = Js.Ours();
        string expected = "{\n" + gap + "\"a\": [\n" + gap + gap + "1\n" + gap + "]\n}";
        Assert.Equal(expected, Js.Run(engine, "JSON.stringify({a: [1]}, null, " + space + ")"));
    }

    private sealed class Thing;
}
