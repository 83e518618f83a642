using System.Diagnostics;
using System.Runtime.CompilerServices;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Runtime;
using Microsoft.Extensions.ObjectPool;
using Xunit.Abstractions;

namespace JsonStringify.Tests;

/// <summary>Untrusted scripts: depth, output size, the engine's constraints, failures, re-entrancy and threads.</summary>
public class SafetyTests(ITestOutputHelper output)
{
    public static TheoryData<string, string> DeepCases => new()
    {
        // a million levels, built in script: arrays, objects, and on the way a replacer or a toJSON
        { "var a = []; for (var i = 0; i < 1000000; i++) { a = [a]; } var s = JSON.stringify(a); s.length + '|' + s.slice(0, 4) + '|' + s.slice(-4)", "2000002|[[[[|]]]]" },
        { "var o = {}; for (var i = 0; i < 1000000; i++) { o = {k: o}; } var s = JSON.stringify(o); s.length + '|' + s.slice(0, 10) + '|' + s.slice(-4)", "6000002|{\"k\":{\"k\":|}}}}" },
        { "var a = [1]; for (var i = 0; i < 1000000; i++) { a = [a]; } var n = 0; var s = JSON.stringify(a, function (k, v) { n++; return v; }); s.length + '|' + n", "2000003|1000002" },
        { "var o = {v: 1}; for (var i = 0; i < 1000000; i++) { o = i % 100000 === 0 ? (function (inner) { return {toJSON() { return {w: inner}; }}; })(o) : {k: o}; } JSON.stringify(o).length", "6000007" },
    };

    [Theory]
    [MemberData(nameof(DeepCases))]
    public void AMillionLevelsSerialize(string script, string expected)
    {
        using Engine engine = Js.Ours();
        Assert.Equal(expected, Js.Run(engine, script));
    }

    [Fact]
    public void OutputPastTheLongestStringIsARangeErrorNotAnOutOfMemoryException()
    {
        // Three strings of 400M chars: the third passes the longest .NET string (1,073,741,791 chars), which is
        // noticed while it is being copied, before the builder is asked to grow past it.
        using Engine engine = Js.Ours();
        string result = Js.Run(engine, """
            var s = 'x'.repeat(400000000);
            try { JSON.stringify([s, s, s]); } catch (e) { (e instanceof RangeError) + '|' + e.message }
            """);
        Assert.Equal("true|Invalid string length", result);
    }

    [Fact]
    public void TheHostsMaxLengthStopsEverySink()
    {
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { MaxLength = 100_000 });
        JsValue big = engine.Evaluate("Array.from({length: 1000}, (_, i) => 'x'.repeat(1000))");
        foreach (Action write in new Action[]
        {
            () => serializer.SerializeToString(big),
            () => serializer.Serialize(big, Stream.Null),
            () => serializer.Serialize(big, TextWriter.Null),
            () => serializer.Serialize(big, new System.Buffers.ArrayBufferWriter<byte>()),
        })
        {
            var e = Assert.Throws<JavaScriptException>(write);
            Assert.Equal("RangeError: Invalid string length", Js.ErrorText(e));
        }
    }

    [Fact]
    public void CancellationStopsAWalkThatRunsNoUserCode()
    {
        using var cancel = new CancellationTokenSource();
        using var engine = new Engine(o => o.CancellationToken(cancel.Token).UseJsonStringify());

        // 20,000 references to one array of 2,000 tiny objects: 40 million values, several seconds of work.
        engine.Execute("var row = Array.from({length: 2000}, () => ({})); var rows = new Array(20000).fill(row);");
        var watch = Stopwatch.StartNew();

        // The timer that cancels runs on the thread pool, which other tests may keep busy, so what is measured is the
        // time from the cancellation itself to the walk stopping.
        long cancelledAt = -1;
        using CancellationTokenRegistration registration = cancel.Token.Register(() => Interlocked.Exchange(ref cancelledAt, watch.ElapsedMilliseconds));
        cancel.CancelAfter(TimeSpan.FromMilliseconds(100));
        Assert.Throws<ExecutionCanceledException>(() => engine.Evaluate("JSON.stringify(rows)"));
        long stoppedAt = watch.ElapsedMilliseconds;

        // The walk may see the cancellation before the timer thread has run the callback that notes its time.
        Assert.True(SpinWait.SpinUntil(() => Interlocked.Read(ref cancelledAt) >= 0, TimeSpan.FromSeconds(10)));
        long latency = stoppedAt - Interlocked.Read(ref cancelledAt);
        output.WriteLine($"cancelled at {cancelledAt} ms, stopped at {stoppedAt} ms");
        Assert.True(latency < 1000, $"stopped {latency} ms after the cancellation");
    }

    [Fact]
    public void TimeoutStopsAChainOfTinyContainersWhereJintRunsOn()
    {
        // 5,000 arrays of 2,000 tiny elements: Jint 4.18.0 checks constraints once per 10,000 items of one container,
        // so it never checks here; we check every 1,024 values.
        const string Build = "var inner = new Array(2000).fill(7); var outer = []; for (var i = 0; i < 5000; i++) { outer.push(inner.slice()); }";
        using var ours = new Engine(o => o.TimeoutInterval(TimeSpan.FromMilliseconds(2000)).UseJsonStringify());
        using var builtin = new Engine(o => o.TimeoutInterval(TimeSpan.FromMilliseconds(2000)));
        ours.Execute(Build);
        builtin.Execute(Build);

        var watch = Stopwatch.StartNew();
        Assert.Throws<TimeoutException>(() => ours.Evaluate("var t0 = Date.now(); while (Date.now() - t0 < 1900) {} JSON.stringify([outer, outer, outer, outer])"));
        long oursElapsed = watch.ElapsedMilliseconds;

        watch.Restart();
        string builtinOutcome;
        try
        {
            builtin.Evaluate("var t0 = Date.now(); while (Date.now() - t0 < 1900) {} JSON.stringify([outer, outer, outer, outer])");
            builtinOutcome = "finished";
        }
        catch (TimeoutException)
        {
            builtinOutcome = "timed out";
        }

        output.WriteLine($"ours: TimeoutException after {oursElapsed} ms; Jint 4.18.0: {builtinOutcome} after {watch.ElapsedMilliseconds} ms (timeout 2,000 ms)");
        Assert.True(oursElapsed < 3000, $"took {oursElapsed} ms");
    }

    [Fact]
    public void TimeoutStopsAHugeArrayOfStrings()
    {
        using var engine = new Engine(o => o.TimeoutInterval(TimeSpan.FromMilliseconds(200)).UseJsonStringify());
        var watch = Stopwatch.StartNew();
        Assert.Throws<TimeoutException>(() => engine.Evaluate("var s = 'abcdefgh'.repeat(1000); var a = new Array(200000).fill(s); JSON.stringify(a)"));
        output.WriteLine($"timed out after {watch.ElapsedMilliseconds} ms");
        Assert.True(watch.ElapsedMilliseconds < 2000, $"took {watch.ElapsedMilliseconds} ms");
    }

    [Fact]
    public void FailingCallsLeakNothingAndLeaveNoText()
    {
        var pool = new TrackingPool();
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { StringBuilderPool = pool });
        JsValue[] failing =
        [
            // Each writes past the writer's 4K-char buffer, so a builder is rented, before it fails.
            engine.Evaluate("({a: 'partial'.repeat(1000), b: {toJSON() { throw new Error('toJSON'); }}})"),
            engine.Evaluate("({a: 'x'.repeat(5000), get b() { throw new Error('getter'); }})"),
            engine.Evaluate("['x'.repeat(5000), new Proxy({}, {ownKeys() { throw new Error('trap'); }})]"),
            engine.Evaluate("var c = {x: 'x'.repeat(5000)}; c.self = c; c"),
            engine.Evaluate("['x'.repeat(5000), 2n]"),
        ];
        for (int i = 0; i < 10_000; i++)
        {
            Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(failing[i % failing.Length]));
        }

        Assert.Equal(10_000, pool.Rented);
        Assert.Equal(10_000, pool.Returned);
        Assert.Equal(1, pool.Created);
        Assert.Equal("{\"ok\":true}", serializer.SerializeToString(engine.Evaluate("({ok: true})")));

        // The replacer path too, and the UTF-8 path.
        JsValue replacer = engine.Evaluate("(k, v) => { if (k === 'boom') throw new Error('replacer'); return v; }");
        for (int i = 0; i < 1000; i++)
        {
            Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(engine.Evaluate("({a: 1, boom: 2})"), replacer));
            Assert.Throws<JavaScriptException>(() => serializer.Serialize(failing[0], Stream.Null));
        }

        Assert.Equal("[1]", serializer.SerializeToString(engine.Evaluate("[1]"), replacer));
        Assert.Equal(1, pool.Created);
    }

    // The walker a thread keeps between calls, and the pool's, must not keep the last document alive: not after a walk
    // that succeeded, and not after one that failed deep inside it.
    [Theory]
    [InlineData(false)]
    [InlineData(true)]
    public void AKeptWalkerPinsNoDocument(bool fail)
    {
        WeakReference document = SerializeAndDrop(fail);
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
        Assert.False(document.IsAlive);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static WeakReference SerializeAndDrop(bool fail)
    {
        var engine = new Engine();
        JsValue document = engine.Evaluate("""
            var wide = {z: 0}; delete wide.z; wide.k = [1, {m: 2}];
            ({a: [{b: {c: [wide]}}], d: {e: 1}, f: {get g() { if (globalThis.fail) throw new Error('deep'); return 1; }}})
            """);
        engine.SetValue("fail", fail);
        var serializer = new JsonSerializer(engine);
        if (fail)
        {
            Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(document));
        }
        else
        {
            Assert.NotNull(serializer.SerializeToString(document, engine.Evaluate("['a', 'b', 'c', 'k', 'm']")));
            Assert.NotNull(serializer.SerializeToString(document));
        }

        var reference = new WeakReference(document);
        engine.Dispose();
        return reference;
    }

    [Fact]
    public void NestedCallsSeveralLevelsDeep()
    {
        using Engine engine = Js.Ours();
        Assert.Equal("\"{\\\"d\\\":\\\"{\\\\\\\"d\\\\\\\":\\\\\\\"{\\\\\\\\\\\\\\\"d\\\\\\\\\\\\\\\":0}\\\\\\\"}\\\"}\"", Js.Run(engine, """
            function nest(n) { return n === 0 ? {d: 0} : {d: {toJSON() { return JSON.stringify(nest(n - 1)); }}}; }
            JSON.stringify(JSON.stringify(nest(2)))
            """));
        Assert.Equal("[\"[\\\"[1]\\\",\\\"x\\\"]\",\"x\"]", Js.Run(engine, """
            JSON.stringify([{toJSON() { return JSON.stringify([{toJSON() { return JSON.stringify([1]); }}, 'x']); }}, 'x'])
            """));
        Assert.Equal("{\"r\":\"{\\\"a\\\":\\\"{\\\\\\\"b\\\\\\\":1}\\\"}\"}", Js.Run(engine, """
            JSON.stringify({r: 1}, (k, v) => k === 'r' ? JSON.stringify({a: 1}, (k2, v2) => k2 === 'a' ? JSON.stringify({b: 1}) : v2) : v)
            """));
    }

    [Fact]
    public void SixteenThreadsShareOnePool()
    {
        const int Threads = 16;
        const int Calls = 10_000;
        var failures = new List<string>();
        var threads = new Thread[Threads];
        for (int t = 0; t < Threads; t++)
        {
            int id = t;
            threads[t] = new Thread(() =>
            {
                using var engine = new Engine();
                var serializer = new JsonSerializer(engine);
                JsValue template = engine.Evaluate($"(function (i) {{ return {{thread: {id}, i: i, s: 't{id}-' + i, a: [i, {{n: i * 0.5}}]}}; }})");
                for (int i = 0; i < Calls; i++)
                {
                    string expected = $"{{\"thread\":{id},\"i\":{i},\"s\":\"t{id}-{i}\",\"a\":[{i},{{\"n\":{(i * 0.5).ToString(System.Globalization.CultureInfo.InvariantCulture)}}}]}}";
                    string? actual = serializer.SerializeToString(template.Call(JsValue.Undefined, [JsNumber.Create(i)]), space: i % 7 == 0 ? JsNumber.Create(0) : null);
                    if (actual != expected)
                    {
                        lock (failures)
                        {
                            failures.Add($"thread {id} call {i}: {actual}");
                        }
                    }
                }
            });
        }

        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        foreach (Thread thread in threads)
        {
            thread.Join();
        }

        Assert.Empty(failures);
    }

    // Counts builders rented, returned and created, keeping at most one, like a pool whose policy clears.
    private sealed class TrackingPool : ObjectPool<StringBuilder>
    {
        private StringBuilder? _kept;

        public int Rented { get; private set; }

        public int Returned { get; private set; }

        public int Created { get; private set; }

        public override StringBuilder Get()
        {
            Rented++;
            StringBuilder? kept = _kept;
            _kept = null;
            if (kept is null)
            {
                Created++;
                kept = new StringBuilder();
            }

            return kept;
        }

        public override void Return(StringBuilder obj)
        {
            Returned++;
            _kept = obj;
        }
    }
}
