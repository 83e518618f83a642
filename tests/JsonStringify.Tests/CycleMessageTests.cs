using Jint;
using Jint.Native;
using Jint.Runtime;

namespace JsonStringify.Tests;

/// <summary>
/// The cycle's TypeError names the circle as V8 14.6 does (the rows that match V8 are in
/// <see cref="ConformanceTests"/>). Naming an object's constructor never runs user or host code, so where V8 reads what
/// we may not, the name is "Object" or "Array".
/// </summary>
public class CycleMessageTests
{
    private const string Start = "TypeError: Converting circular structure to JSON\n    --> starting at object with constructor ";

    // Each row: the script, what we say, and what V8 14.6 says.
    [Theory]
    // a prototype's constructor held in a hidden-class slot, which may be lazy
    [InlineData(
        "function F() {} var o = Object.create({constructor: F}); o.self = o; JSON.stringify(o)",
        "'Object'\n    --- property 'self' closes the circle",
        "'F'\n    --- property 'self' closes the circle")]
    // V8 falls back to the name it inferred for an anonymous function; we only read the name property
    [InlineData(
        "var P = Object.defineProperty(function () {}, 'name', {value: ''}); var o = new P(); o.self = o; JSON.stringify(o)",
        "'Object'\n    --- property 'self' closes the circle",
        "'Object.defineProperty.value'\n    --- property 'self' closes the circle")]
    // V8 names the constructor that made the object, which its hidden class records; Jint keeps no such record, so we
    // name what the prototype chain says now
    [InlineData(
        "class K {} var k = new K(); Object.setPrototypeOf(k, {}); k.self = k; JSON.stringify(k)",
        "'Object'\n    --- property 'self' closes the circle",
        "'K'\n    --- property 'self' closes the circle")]
    [InlineData(
        "class K {} class L {} var k = new K(); Object.setPrototypeOf(k, L.prototype); k.self = k; JSON.stringify(k)",
        "'L'\n    --- property 'self' closes the circle",
        "'K'\n    --- property 'self' closes the circle")]
    [InlineData(
        "function F() {} F.prototype.constructor = function Other() {}; var f = new F(); f.self = f; JSON.stringify(f)",
        "'Other'\n    --- property 'self' closes the circle",
        "'F'\n    --- property 'self' closes the circle")]
    public void NamesOnlyWhatJintShowsWithoutRunningCode(string script, string ours, string v8)
    {
        Assert.NotEqual(ours, v8);
        Assert.Equal(Start + ours, Js.Run(Js.Ours(), script));
    }

    [Fact]
    public void GettersAndTrapsDoNotRunToNameAConstructor()
    {
        using Engine engine = Js.Ours();
        Assert.Equal("'Object'|'Object'|", Js.Run(engine, """
            var log = [];
            var proto = Object.create(Object.prototype, {
              constructor: {get() { log.push('constructor'); return function Named() {}; }},
              [Symbol.toStringTag]: {get() { log.push('toStringTag'); return 'Tag'; }},
            });
            var o = Object.create(proto); o.self = o;
            var t = {}; var trapped = new Proxy(t, {getPrototypeOf(t) { log.push('getPrototypeOf'); return proto; }}); t.self = trapped;
            var names = [o, trapped].map(v => { try { JSON.stringify(v); } catch (e) { return e.message.split('constructor ')[1].split('\n')[0]; } });
            names.join('|') + '|' + log.join()
            """));
    }

    [Fact]
    public void LazySlotFactoriesDoNotRunToNameAConstructor()
    {
        using Engine engine = Js.Ours();
        int runs = 0;
        JsObjectLayout layout = JsObjectLayout.CreateBuilder()
            .AddLazy("constructor", (o, _) =>
            {
                runs++;
                return o.Engine.Evaluate("(function Lazy() {})");
            })
            .Build();
        engine.SetValue("proto", JsObject.Create(engine, layout, [null]));
        JsValue o = engine.Evaluate("var o = Object.create(proto); o.self = o; o");

        var serializer = new JsonSerializer(engine);
        JavaScriptException e = Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(o));
        Assert.Equal(Start + "'Object'\n    --- property 'self' closes the circle", Js.ErrorText(e));
        Assert.Equal(0, runs);
    }

    // Past 32 open containers the cycle check uses a hash set; the circle is still found on the stack.
    [Fact]
    public void NamesTheCircleInDeepDocumentsFromCSharp()
    {
        using var engine = new Engine();
        JsValue root = engine.Evaluate("""
            var root = {list: []}; var cur = root.list;
            for (var i = 0; i < 40; i++) { var next = []; cur.push(1, next); cur = next; }
            cur.push({back: root.list[1][1]});
            root
            """);
        JavaScriptException e = Assert.Throws<JavaScriptException>(() => new JsonSerializer(engine).SerializeToString(root, space: 2));
        Assert.Equal(
            Start + "'Array'\n    |     index 1 -> object with constructor 'Array'\n    |     index 1 -> object with constructor 'Array'"
            + "\n    |     ...\n    |     index 0 -> object with constructor 'Object'\n    --- property 'back' closes the circle",
            Js.ErrorText(e));
    }
}
