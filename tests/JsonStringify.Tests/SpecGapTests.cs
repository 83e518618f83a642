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
    public void IsArrayAccessorPassesItsSelfTest()
    {
        Assert.Equal(!ReaderSelection.PublicOnly, JintInternals.IsArrayAccessorWorks);
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
        Assert.Equal(expected, new JsonSerializer(engine).IsArray(o));
        Assert.Equal(expected, new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = false }).IsArray(o));
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
                () => new JsonSerializer(engine).IsArray(proxy),
                () => new JsonSerializer(engine, new JsonSerializerOptions { EnableFastPath = false }).IsArray(proxy),
            ])
            {
                var e = Assert.Throws<JavaScriptException>(() => isArray());
                Assert.Same(typeError, ((ObjectInstance)e.Error).Get("constructor"));
            }
        }
    }
}
