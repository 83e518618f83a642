using System.Buffers;
using System.Runtime.CompilerServices;
using System.Text;
using Jint;
using Jint.Native;
using Jint.Runtime;
using JsonStringify.Internals;

namespace JsonStringify.Tests;

/// <summary>
/// Untrusted scripts: depth, output size, the engine's constraints, failures, re-entrancy and threads.
/// </summary>
public class SafetyTests
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

    // 500 arrays of 2,000 numbers: a million values in containers far smaller than Jint 4.18.0's check interval (10,000
    // items of one container), checked by the walk once per 1,024 values; the engine may add a few checks of its own
    // around the call (the public path's host-call function runs a statement).
    [Fact]
    public void ConstraintsAreCheckedEvery1024ValuesInAChainOfSmallContainers()
    {
        var counter = new CheckCounter();
        using var engine = new Engine(o => o.Constraint(counter));
        JsValue outer = engine.Evaluate("var inner = new Array(2000).fill(7); var outer = []; for (var i = 0; i < 500; i++) { outer.push(inner.slice()); } outer");
        counter.Start();

        Assert.True(new JsonSerializer(engine).Serialize(outer, Stream.Null));

        const int Values = 500 * 2000 + 500;
        Assert.InRange(counter.Checks, Values / JsonConstants.ConstraintCheckItems, (Values / JsonConstants.ConstraintCheckItems) + 4);
    }

    // 1,000 strings of 8,000 chars: too few values for the count to matter, so the output's length decides, checked
    // after each value once 64K chars have gone out since the last check.
    [Fact]
    public void ConstraintsAreCheckedEvery64KCharsOfLongStrings()
    {
        var counter = new CheckCounter();
        using var engine = new Engine(o => o.Constraint(counter));
        JsValue strings = engine.Evaluate("new Array(1000).fill('abcdefgh'.repeat(1000))");
        counter.Start();

        Assert.True(new JsonSerializer(engine).Serialize(strings, Stream.Null));

        const int Chars = (1000 * 8002) + 1001;
        Assert.InRange(counter.Checks, Chars / (JsonConstants.ConstraintCheckChars + 8002), (Chars / JsonConstants.ConstraintCheckChars) + 4);
    }

    // A budget of constraint checks that runs out in the middle: the walk stops there, with part of the document
    // written, which shows that the constraint fired inside the walk (not before it began, not after it ended).
    [Fact]
    public void AConstraintFiresInsideTheWalk()
    {
        const int Budget = 50;
        var counter = new CheckCounter();
        using var engine = new Engine(o => o.Constraint(counter));
        JsValue rows = engine.Evaluate("var row = new Array(2000).fill(7); new Array(500).fill(row)");
        var stream = new CountingStream();
        counter.Start(throwAfter: Budget);

        Assert.Throws<BudgetSpentException>(() => new JsonSerializer(engine).Serialize(rows, stream));

        Assert.Equal(Budget + 1, counter.Checks);
        Assert.InRange(stream.Length, Budget * JsonConstants.ConstraintCheckItems, 2 * 1_000_000);
    }

    // Jint's own timeout, from the host: the walk must be stopped part-way, at its next check after the timeout fired.
    // The outcome does not hang on the machine's speed: at its first write, the stream waits for the timeout to fire
    // (polling the engine's constraints, whose timeout stays fired until the next host call resets it), so the walk
    // meets a fired timeout however fast it writes (or has met it already, before anything was written). 40 million
    // values (80 MB of output) are written only if no check comes; the wait gives up after a minute, so that a timeout
    // that never fires fails the test.
    [Fact]
    public void TheEnginesTimeoutStopsAHostCall()
    {
        using var engine = new Engine(o => o.TimeoutInterval(TimeSpan.FromMilliseconds(50)));
        JsValue rows = engine.Evaluate("var row = new Array(2000).fill(7); var block = new Array(1000).fill(row); new Array(20).fill(block)");
        long firedAt = -1;
        var stream = new CountingStream
        {
            OnWrite = total =>
            {
                if (firedAt < 0)
                {
                    Assert.True(SpinWait.SpinUntil(() => HasFired(engine), TimeSpan.FromMinutes(1)), "the timeout fired");
                    firedAt = total;
                }
            },
        };

        Assert.Throws<TimeoutException>(() => new JsonSerializer(engine).Serialize(rows, stream));

        Assert.InRange(stream.Length - Math.Max(firedAt, 0), 0, 64 * 1024);

        static bool HasFired(Engine engine)
        {
            try
            {
                engine.Constraints.Check();
                return false;
            }
            catch (TimeoutException)
            {
                return true;
            }
        }
    }

    // A cancellation made while the walk writes (here, by the stream, after 1 MB) stops it at its next check: within
    // 1,024 values, plus what the writer and the current chunk already held.
    [Fact]
    public void CancellationStopsAWalkThatRunsNoUserCodeAtItsNextCheck()
    {
        using var cancel = new CancellationTokenSource();
        using var engine = new Engine(o => o.CancellationToken(cancel.Token));

        // 20,000 references to one array of 2,000 tiny objects: 40 million values, 120 MB of output.
        JsValue rows = engine.Evaluate("var row = Array.from({length: 2000}, () => ({})); new Array(20000).fill(row)");
        long cancelledAt = -1;
        var stream = new CountingStream
        {
            OnWrite = total =>
            {
                if (cancelledAt < 0 && total > 1_000_000)
                {
                    cancelledAt = total;
                    cancel.Cancel();
                }
            },
        };

        Assert.Throws<ExecutionCanceledException>(() => new JsonSerializer(engine).Serialize(rows, stream));

        Assert.True(cancelledAt > 0);
        Assert.InRange(stream.Length - cancelledAt, 0, 64 * 1024);
    }

    [Fact]
    public void FailingCallsLeakNothingAndLeaveNoText()
    {
        var pool = new CountingCharPool();
        using var engine = new Engine();
        var serializer = new JsonSerializer(engine, new JsonSerializerOptions { CharPool = pool });
        JsValue[] failing =
        [
            // Each writes past the writer's 4K-char buffer, so a chunk is rented, before it fails (its long string ends
            // in a line break to escape, so that it is copied in slices rather than kept whole).
            engine.Evaluate("({a: 'partial'.repeat(1000) + '\\n', b: {toJSON() { throw new Error('toJSON'); }}})"),
            engine.Evaluate("({a: 'x'.repeat(4999) + '\\n', get b() { throw new Error('getter'); }})"),
            engine.Evaluate("['x'.repeat(4999) + '\\n', new Proxy({}, {ownKeys() { throw new Error('trap'); }})]"),
            engine.Evaluate("var c = {x: 'x'.repeat(4999) + '\\n'}; c.self = c; c"),
            engine.Evaluate("['x'.repeat(4999) + '\\n', 2n]"),
        ];
        for (int i = 0; i < 10_000; i++)
        {
            Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(failing[i % failing.Length]));
        }

        Assert.Equal(10_000, pool.Rented);
        Assert.Equal(10_000, pool.Returned);
        Assert.Equal(0, pool.Outstanding);
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

    // A walker kept between calls replaces its frames and its table stack's array once they have survived a collection
    // (Walker.RenewAgedArrays). The calls after a collection write what Jint writes, as UTF-8 and as a string, through
    // hidden classes, tables and arrays 40 levels deep (past the kept frames and the linear cycle check), and still
    // find a cycle.
    [Fact]
    public void AKeptWalkerWritesTheSameAfterACollection()
    {
        using var engine = new Engine();
        JsValue document = engine.Evaluate("""
            var table = {z: 0}; delete table.z; table.k = [1, {m: 2}]; table.n = 'x';
            var deep = {leaf: [table, {a: 1, b: [true, null]}]};
            for (var i = 0; i < 40; i++) { deep = i % 2 ? {k: deep, t: table} : [deep, i]; }
            deep
            """);
        JsValue cyclic = engine.Evaluate("var c = {a: [{}]}; c.a[0].b = c; c");
        string expected = new Jint.Native.Json.JsonSerializer(engine).Serialize(document, JsValue.Undefined, JsValue.Undefined).ToString();
        var serializer = new JsonSerializer(engine);
        for (int round = 0; round < 3; round++)
        {
            Assert.Equal(expected, serializer.SerializeToString(document));
            var utf8 = new ArrayBufferWriter<byte>();
            Assert.True(serializer.Serialize(document, utf8));
            Assert.Equal(expected, Encoding.UTF8.GetString(utf8.WrittenSpan));
            Assert.Throws<JavaScriptException>(() => serializer.SerializeToString(cyclic));
            GC.Collect();
        }
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

    // Counts the engine's constraint checks from Start on, and throws once a budget is spent.
    private sealed class CheckCounter : Constraint
    {
        private int _throwAfter = int.MaxValue;

        public int Checks { get; private set; }

        public void Start(int throwAfter = int.MaxValue)
        {
            Checks = 0;
            _throwAfter = throwAfter;
        }

        public override void Check()
        {
            if (++Checks > _throwAfter)
            {
                throw new BudgetSpentException();
            }
        }

        public override void Reset()
        {
        }
    }

    private sealed class BudgetSpentException : Exception
    {
    }
}
