using System.Diagnostics;
using System.Reflection;
using System.Reflection.Emit;
using System.Runtime.CompilerServices;
using Jint;
using Jint.Native;
using Jint.Native.Array;
using Jint.Native.Error;
using Jint.Native.Function;
using Jint.Native.Json;
using Jint.Native.Object;
using Jint.Native.Symbol;
using Jint.Runtime;
using Jint.Runtime.Descriptors;
using Jint.Runtime.Interop;

namespace JsonStringify.Internals;

/// <summary>
/// Every use of Jint's internal members, in one place, written against Jint 4.18.0. Each group of accessors is
/// self-tested once per process against probe objects of a private engine, and compared with what the public API
/// says about them; on any exception or disagreement (another Jint version), callers get the public path instead.
/// </summary>
internal static class JintInternals
{
    private const string ShapeType = "Jint.Native.Object.Shape, Jint";
    private const string CallableType = "Jint.Native.ICallable, Jint";
    private const string ExpressionType = "Jint.Runtime.Interpreter.Expressions.JintExpression, Jint";
    private const string PropertyTableType = "Jint.Collections.HybridDictionary`1[[Jint.Runtime.Descriptors.PropertyDescriptor, Jint]], Jint";

    private static readonly Lazy<bool> s_optionsAccessorWorks = new(ProbeOptionsAccessor);
    private static readonly Lazy<bool> s_shapeAccessorsWork = new(ProbeShapeAccessors);
    private static readonly Lazy<bool> s_callAccessorWorks = new(ProbeCallAccessor);
    private static readonly Lazy<bool> s_evaluationStateAccessorWorks = new(ProbeEvaluationStateAccessor);
    private static readonly Lazy<TableReader?> s_tableReader = new(CreateTableReader);

    // Reads a property table (a HybridDictionary<PropertyDescriptor>) in its enumeration order: of its enumerable
    // entries, the names and descriptors that fit into the array from start on, and how many there are; and the kinds
    // of all its names, enumerable or not.
    private delegate int TableReader(object table, TableEntry[] entries, int start, out TableNameKinds kinds);

    // The table reader once it has compiled and passed its self-test: a plain field, since every table asks for it.
    private static TableReader? s_readyTableReader;
    private static readonly Lazy<bool> s_isArrayAccessorWorks = new(ProbeIsArrayAccessor);
    private static readonly Lazy<bool> s_rangeErrorAccessorWorks = new(ProbeRangeErrorAccessor);

    /// <summary>Whether the accessor to Engine.Options passed its self-test in this process.</summary>
    public static bool OptionsAccessorWorks => s_optionsAccessorWorks.Value;

    /// <summary>Whether the hidden-class and dense-array accessors passed their self-test in this process.</summary>
    public static bool ShapeAccessorsWork => !ForcePublicReader && s_shapeAccessorsWork.Value;

    /// <summary>The raw self-test result, whatever <see cref="ForcePublicReader"/> says.</summary>
    public static bool ShapeSelfTestPassed => s_shapeAccessorsWork.Value;

    /// <summary>Set by the test suite to run every test on the public reader as well.</summary>
    public static bool ForcePublicReader { get; set; }

    /// <summary>Whether the accessor to the engine's internal call passed its self-test (and the suite allows it).</summary>
    public static bool CallAccessorWorks => !ForcePublicReader && s_callAccessorWorks.Value;

    /// <summary>Whether the accessor to the engine's "is it running something" flag passed its self-test (and the suite allows it).</summary>
    public static bool EvaluationStateAccessorWorks => !ForcePublicReader && s_evaluationStateAccessorWorks.Value;

    /// <summary>
    /// Whether <paramref name="engine"/> is running something for someone: a script, or a host entry such as
    /// <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>. A call that starts while it is not is a host call of its
    /// own, whose constraints count from its start; one that starts while it is runs inside that work.
    /// </summary>
    public static bool IsEvaluationInProgress(Engine engine) => EvaluationInProgress(engine);

    /// <summary>Whether the accessor to the engine's IsArray passed its self-test (and the suite allows it).</summary>
    public static bool IsArrayAccessorWorks => !ForcePublicReader && s_isArrayAccessorWorks.Value;

    /// <summary>
    /// The abstract operation IsArray(<paramref name="o"/>), as the engine implements it for Array.isArray: a proxy
    /// answers for its target, through any number of proxies, and a revoked one throws the realm's TypeError. Nothing
    /// a script does to globals or to the Array constructor changes it.
    /// </summary>
    public static bool IsArray(ObjectInstance o) => IsArrayOperation(o);

    /// <summary>Whether the accessor to the realm's intrinsic RangeError passed its self-test (and the suite allows it).</summary>
    public static bool RangeErrorAccessorWorks => !ForcePublicReader && s_rangeErrorAccessorWorks.Value;

    /// <summary>The intrinsic %RangeError% of <paramref name="engine"/>'s realm, whatever the global binding now holds.</summary>
    public static ErrorConstructor GetRangeError(Engine engine) => RangeErrorOf(engine.Intrinsics);

    /// <summary>
    /// Calls <paramref name="callable"/> (which IsCallable) as Jint's own serializer does: a function through its own
    /// [[Call]], anything else (a proxy) through the engine's internal call; either way without the per-call closure
    /// and constraint reset of the public <see cref="Engine.Call(JsValue, JsValue, JsValue[])"/>.
    /// </summary>
    public static JsValue Call(Engine engine, JsValue callable, JsValue thisObject, JsValue[] arguments) =>
        callable is Function function
            ? FunctionCall(function, thisObject, arguments)
            : EngineCall(engine, callable, thisObject, arguments, null);

    /// <summary>Whether the property-table reader compiled and passed its self-test (and the suite allows it).</summary>
    public static bool TableReaderWorks => !ForcePublicReader && (s_readyTableReader ??= s_tableReader.Value) is not null;

    /// <summary>
    /// <see cref="TableReaderWorks"/> once it has said yes in this process, without compiling or testing the reader:
    /// two loads, cheap enough to ask at every table. False until the first table has gone through TableReaderWorks.
    /// </summary>
    public static bool TableReaderReady => s_readyTableReader is not null && !ForcePublicReader;

    /// <summary>
    /// Reads the property table of a plain object in dictionary mode (no hidden class) onto
    /// <paramref name="tables"/>: its enumerable string-keyed properties in [[OwnPropertyKeys]] order, without a
    /// JsString per key. Only after <see cref="TableReaderWorks"/>.
    /// </summary>
    // Inlined into the walker's read of a row (see Walker.ReadTableAhead), one call less per table.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static TableSegment ReadTable(JsObject o, TableStack tables)
    {
        Debug.Assert(GetShape(o) is null, "an object in dictionary mode");
        // Set once TableReaderWorks has said yes; the suite's own test of the reader calls this without asking.
        TableReader reader = s_readyTableReader ?? s_tableReader.Value!;
        object? table = PropertyTable(o);
        int read = 0;
        TableNameKinds kinds = TableNameKinds.None;
        if (table is not null)
        {
            read = reader(table, tables.Entries, tables.Top, out kinds);
            if (read > tables.Room)
            {
                tables.EnsureRoom(read);
                read = reader(table, tables.Entries, tables.Top, out kinds);
            }
        }

        return tables.Push(read, kinds);
    }

    /// <summary>The options <paramref name="engine"/> was created with, or null where Jint does not expose them.</summary>
    public static Options? TryGetOptions(Engine engine) => OptionsAccessorWorks ? GetOptions(engine) : null;

    /// <summary>The hidden class of <paramref name="o"/>, or null when it is in dictionary mode.</summary>
    public static object? ShapeOf(JsObject o) => GetShape(o);

    /// <summary>The shape's keys as JsStrings in slot order, memoised by Jint; false when one is integer-like.</summary>
    public static bool TryGetOrderedKeyStrings(object shape, out JsValue[]? keys) => ShapeKeyStrings(shape, out keys);

    /// <summary>Whether <paramref name="o"/> has never had an own property: no shape, no property table, extensible.</summary>
    public static bool IsVirginPlainObject(JsObject o) => IsVirgin(o);

    /// <summary>
    /// What <paramref name="slot"/> holds, without materialising it: a lazy slot (from the public
    /// <c>JsObjectLayout.Builder.AddLazy</c>) holds a placeholder of type <see cref="Types.Empty"/> until its factory,
    /// host code that may run scripts, is called.
    /// </summary>
    public static JsValue GetRawSlot(JsObject o, int slot) => RawSlot(o, slot);

    /// <summary>
    /// Whether an array has no own property but its elements and length: Jint keeps every other string-keyed own
    /// property of an array in its property table, which it creates on the first one.
    /// </summary>
    public static bool HasOnlyElements(ArrayInstance array) => PropertyTable(array) is null;

    /// <summary>The dense element storage of an array (longer than its length), or null when it is sparse.</summary>
    public static JsValue?[]? DenseElements(ArrayInstance array) => Dense(array);

    // Jint 4.18.0: internal virtual bool JsValue.IsArray(), overridden by ArrayInstance and JsProxy.
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "IsArray")]
    private static extern bool IsArrayOperation(JsValue value);

    // Jint 4.18.0: internal ErrorConstructor Intrinsics.RangeError { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_RangeError")]
    private static extern ErrorConstructor RangeErrorOf(Intrinsics intrinsics);

    // Jint 4.18.0: internal Options Engine.Options { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_Options")]
    private static extern Options GetOptions(Engine engine);

    // Jint 4.18.0: internal bool Engine.IsEvaluationInProgress { get; } (_hostEntryDepth > 0 || _executionContexts.Count > 1)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_IsEvaluationInProgress")]
    private static extern bool EvaluationInProgress(Engine engine);

    // Jint 4.18.0: internal JsValue Engine.Call(ICallable callable, JsValue thisObject, JsValue[] arguments, JintExpression? expression)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "Call")]
    private static extern JsValue EngineCall(
        Engine engine,
        [UnsafeAccessorType(CallableType)] object callable,
        JsValue thisObject,
        JsValue[] arguments,
        [UnsafeAccessorType(ExpressionType)] object? expression);

    // Jint 4.18.0: protected internal abstract JsValue Function.Call(JsValue thisObject, JsValue[] arguments)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "Call")]
    private static extern JsValue FunctionCall(Function function, JsValue thisObject, JsValue[] arguments);

    // Jint 4.18.0: internal Shape JsObject.ShapeOf { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_ShapeOf")]
    [return: UnsafeAccessorType(ShapeType)]
    private static extern object? GetShape(JsObject o);

    // Jint 4.18.0: internal bool Shape.TryGetOrderedKeyStrings(out JsValue[]? strings)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "TryGetOrderedKeyStrings")]
    private static extern bool ShapeKeyStrings([UnsafeAccessorType(ShapeType)] object shape, out JsValue[]? strings);

    // Jint 4.18.0: internal readonly int Shape.SlotCount
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "SlotCount")]
    private static extern ref int ShapeSlotCount([UnsafeAccessorType(ShapeType)] object shape);

    // Jint 4.18.0: internal bool JsObject.IsVirginPlainObject { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_IsVirginPlainObject")]
    private static extern bool IsVirgin(JsObject o);

    // Jint 4.18.0: internal JsValue JsObject.GetSlot(int slot)
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "GetSlot")]
    private static extern JsValue RawSlot(JsObject o, int slot);

    // Jint 4.18.0: internal HybridDictionary<PropertyDescriptor>? ObjectInstance.Properties { get; }
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "get_Properties")]
    [return: UnsafeAccessorType(PropertyTableType)]
    private static extern object? PropertyTable(ObjectInstance o);

    // Jint 4.18.0: internal JsValue?[]? ArrayInstance._dense
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_dense")]
    private static extern ref JsValue?[]? Dense(ArrayInstance array);

    // Jint 4.18.0: a HybridDictionary<PropertyDescriptor> keeps its entries in a ListDictionary (private _list) while
    // it is small and in a StringDictionarySlim (internal _dictionary) after that. The list is a chain of nodes (private
    // _head; each node's public Key, Value and Next), in insertion order; the dictionary keeps its entries in a ring of
    // struct slots (private _entries, _firstIndex and _count; see ReadDictionary). Key.Name (internal) is the key's
    // string. Reading them directly, rather than through the enumerators, saves a call and a copy per property (the
    // dictionary's enumerator was 5.6% of a walk of twitter built in script). These are members of internal generic
    // types, which [UnsafeAccessor] cannot name, so a delegate is compiled once. Null where code cannot be compiled
    // (NativeAOT) or when a member is missing or the self-test disagrees.
    private const int RemovedSlot = -2;

    private static TableReader? CreateTableReader()
    {
        if (!RuntimeFeature.IsDynamicCodeCompiled)
        {
            return null;
        }

        try
        {
            TableReader reader = CompileTableReader();
            return ProbeTableReader(reader) ? reader : null;
        }
        catch (Exception e) when (IsAccessorFailure(e) || e is ArgumentException or InvalidOperationException or MemberAccessException)
        {
            return null;
        }
    }

    // Emitted as IL into a DynamicMethod that may read private fields: System.Linq.Expressions did the same, but its
    // compiler cost a new process 24-37 ms at the first table, and this takes about 5 ms.
    private static TableReader CompileTableReader()
    {
        const BindingFlags Instance = BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic;
        Assembly jint = typeof(Engine).Assembly;
        Type tableType = jint.GetType("Jint.Collections.HybridDictionary`1", throwOnError: true)!.MakeGenericType(typeof(PropertyDescriptor));
        FieldInfo keyName = jint.GetType("Jint.Key", throwOnError: true)!.GetField("Name", Instance) ?? throw new MissingFieldException("Jint.Key", "Name");
        FieldInfo list = tableType.GetField("_list", Instance) ?? throw new MissingFieldException(tableType.Name, "_list");
        FieldInfo dictionary = tableType.GetField("_dictionary", Instance) ?? throw new MissingFieldException(tableType.Name, "_dictionary");
        FieldInfo head = list.FieldType.GetField("_head", Instance) ?? throw new MissingFieldException(list.FieldType.Name, "_head");
        Type nodeType = head.FieldType;
        FieldInfo nodeKey = nodeType.GetField("Key", Instance) ?? throw new MissingFieldException(nodeType.Name, "Key");
        FieldInfo nodeValue = nodeType.GetField("Value", Instance) ?? throw new MissingFieldException(nodeType.Name, "Value");
        FieldInfo nodeNext = nodeType.GetField("Next", Instance) ?? throw new MissingFieldException(nodeType.Name, "Next");
        Type dictionaryType = dictionary.FieldType;
        FieldInfo slotsField = dictionaryType.GetField("_entries", Instance) ?? throw new MissingFieldException(dictionaryType.Name, "_entries");
        FieldInfo firstField = dictionaryType.GetField("_firstIndex", Instance) ?? throw new MissingFieldException(dictionaryType.Name, "_firstIndex");
        FieldInfo countField = dictionaryType.GetField("_count", Instance) ?? throw new MissingFieldException(dictionaryType.Name, "_count");
        Type slotType = slotsField.FieldType.GetElementType() ?? throw new MissingFieldException(dictionaryType.Name, "_entries");
        FieldInfo slotKey = slotType.GetField("key", Instance) ?? throw new MissingFieldException(slotType.Name, "key");
        FieldInfo slotValue = slotType.GetField("value", Instance) ?? throw new MissingFieldException(slotType.Name, "value");
        FieldInfo slotNext = slotType.GetField("next", Instance) ?? throw new MissingFieldException(slotType.Name, "next");

        // The shapes the IL below assumes: classes for the table, its list, its nodes and its dictionary, structs for
        // a key and a slot, ints for the ring's indexes, and descriptors for the values.
        if (tableType.IsValueType || list.FieldType.IsValueType || nodeType.IsValueType || dictionaryType.IsValueType
            || !keyName.DeclaringType!.IsValueType || nodeKey.FieldType != keyName.DeclaringType || slotKey.FieldType != keyName.DeclaringType
            || keyName.FieldType != typeof(string) || nodeNext.FieldType != nodeType
            || nodeValue.FieldType != typeof(PropertyDescriptor) || slotValue.FieldType != typeof(PropertyDescriptor)
            || !slotType.IsValueType || firstField.FieldType != typeof(int) || countField.FieldType != typeof(int) || slotNext.FieldType != typeof(int))
        {
            throw new MissingFieldException(tableType.Name, "the table layout of Jint 4.18.0");
        }

        // The first parameter is the delegate's target and goes unused: a delegate closed over its first argument calls
        // the method directly, where an open static one goes through a shuffle thunk on every call.
        var method = new DynamicMethod(
            "ReadPropertyTable",
            typeof(int),
            [typeof(object), typeof(object), typeof(TableEntry[]), typeof(int), typeof(TableNameKinds).MakeByRefType()],
            typeof(JintInternals).Module,
            skipVisibility: true);
        FieldInfo entryName = typeof(TableEntry).GetField(nameof(TableEntry.Name))!;
        FieldInfo entryDescriptor = typeof(TableEntry).GetField(nameof(TableEntry.Descriptor))!;
        MethodInfo kindOf = typeof(TableEntry).GetMethod(nameof(TableEntry.KindOf))!;
        MethodInfo isEnumerable = typeof(PropertyDescriptor).GetProperty(nameof(PropertyDescriptor.Enumerable))!.GetMethod!;
        ILGenerator il = method.GetILGenerator();
        LocalBuilder count = il.DeclareLocal(typeof(int));
        LocalBuilder kinds = il.DeclareLocal(typeof(int));
        LocalBuilder name = il.DeclareLocal(typeof(string));
        LocalBuilder descriptor = il.DeclareLocal(typeof(PropertyDescriptor));
        LocalBuilder typed = il.DeclareLocal(tableType);
        LocalBuilder node = il.DeclareLocal(nodeType);
        LocalBuilder source = il.DeclareLocal(dictionaryType);
        LocalBuilder slots = il.DeclareLocal(slotsField.FieldType);
        LocalBuilder mask = il.DeclareLocal(typeof(int));
        LocalBuilder i = il.DeclareLocal(typeof(int));
        LocalBuilder left = il.DeclareLocal(typeof(int));
        Label end = il.DefineLabel();

        // var typed = (HybridDictionary<PropertyDescriptor>)table; var count = 0, kinds = 0 (locals start at zero);
        il.Emit(OpCodes.Ldarg_1);
        il.Emit(OpCodes.Castclass, tableType);
        il.Emit(OpCodes.Stloc, typed);

        // The dictionary's entries, in the order its enumerator lists them: a ring of slots (its length a power of two)
        // from _firstIndex on, _count of them in use, skipping slots whose next is RemovedSlot.
        // var source = typed._dictionary; if (source != null) { var slots = source._entries; var mask = slots.Length - 1;
        // var i = source._firstIndex; for (var left = source._count; left > 0; left--) {
        //     while (slots[i].next == RemovedSlot) i = (i + 1) & mask; Store(slots[i].key.Name, slots[i].value); i = (i + 1) & mask; } }
        Label readList = il.DefineLabel();
        Label ringLoop = il.DefineLabel();
        Label skipRemoved = il.DefineLabel();
        Label found = il.DefineLabel();
        AssignField(source, typed, dictionary);
        il.Emit(OpCodes.Ldloc, source);
        il.Emit(OpCodes.Brfalse, readList);
        AssignField(slots, source, slotsField);
        il.Emit(OpCodes.Ldloc, slots);
        il.Emit(OpCodes.Ldlen);
        il.Emit(OpCodes.Conv_I4);
        il.Emit(OpCodes.Ldc_I4_1);
        il.Emit(OpCodes.Sub);
        il.Emit(OpCodes.Stloc, mask);
        AssignField(i, source, firstField);
        AssignField(left, source, countField);
        il.MarkLabel(ringLoop);
        il.Emit(OpCodes.Ldloc, left);
        il.Emit(OpCodes.Ldc_I4_0);
        il.Emit(OpCodes.Ble, end);
        il.MarkLabel(skipRemoved);
        LoadSlotAddress();
        il.Emit(OpCodes.Ldfld, slotNext);
        il.Emit(OpCodes.Ldc_I4, RemovedSlot);
        il.Emit(OpCodes.Bne_Un, found);
        Step();
        il.Emit(OpCodes.Br, skipRemoved);
        il.MarkLabel(found);
        Store(
            () =>
            {
                LoadSlotAddress();
                il.Emit(OpCodes.Ldflda, slotKey);
                il.Emit(OpCodes.Ldfld, keyName);
            },
            () =>
            {
                LoadSlotAddress();
                il.Emit(OpCodes.Ldfld, slotValue);
            });
        Step();
        il.Emit(OpCodes.Ldloc, left);
        il.Emit(OpCodes.Ldc_I4_1);
        il.Emit(OpCodes.Sub);
        il.Emit(OpCodes.Stloc, left);
        il.Emit(OpCodes.Br, ringLoop);

        // Otherwise the list, in insertion order: for (var node = typed._list?._head; node != null; node = node.Next)
        // Store(node.Key.Name, node.Value);
        Label hasList = il.DefineLabel();
        Label nodeLoop = il.DefineLabel();
        il.MarkLabel(readList);
        il.Emit(OpCodes.Ldloc, typed);
        il.Emit(OpCodes.Ldfld, list);
        il.Emit(OpCodes.Dup);
        il.Emit(OpCodes.Brtrue, hasList);
        il.Emit(OpCodes.Pop);
        il.Emit(OpCodes.Br, end);
        il.MarkLabel(hasList);
        il.Emit(OpCodes.Ldfld, head);
        il.Emit(OpCodes.Stloc, node);
        il.MarkLabel(nodeLoop);
        il.Emit(OpCodes.Ldloc, node);
        il.Emit(OpCodes.Brfalse, end);
        Store(
            () =>
            {
                il.Emit(OpCodes.Ldloc, node);
                il.Emit(OpCodes.Ldflda, nodeKey);
                il.Emit(OpCodes.Ldfld, keyName);
            },
            () =>
            {
                il.Emit(OpCodes.Ldloc, node);
                il.Emit(OpCodes.Ldfld, nodeValue);
            });
        AssignField(node, node, nodeNext);
        il.Emit(OpCodes.Br, nodeLoop);

        // kinds (out) = the kinds seen; return count;
        il.MarkLabel(end);
        il.Emit(OpCodes.Ldarg_S, (byte)4);
        il.Emit(OpCodes.Ldloc, kinds);
        il.Emit(OpCodes.Stind_I4);
        il.Emit(OpCodes.Ldloc, count);
        il.Emit(OpCodes.Ret);
        return method.CreateDelegate<TableReader>(method);

        // var name = <name>; var descriptor = <descriptor>; kinds |= TableEntry.KindOf(name);
        // if (descriptor.Enumerable) { if (start + count < entries.Length) {
        //     if ((object)entries[start + count].Name != name) entries[start + count].Name = name;
        //     entries[start + count].Descriptor = descriptor; } count++; }
        // The fields are assigned in place: the array holds structs, so no store needs a covariance check. The rows
        // of a table built in script share their key strings and are read one after another at the same place on the
        // stack (the last row's entries stay there until the call ends), so the name is mostly there already: the
        // compare skips a write barrier per property. The job list built in script took 0.94-0.985 of the time in
        // six A/B runs; citm_catalog built 0.94-1.05, within the noise.
        void Store(Action pushName, Action pushDescriptor)
        {
            Label full = il.DefineLabel();
            Label skip = il.DefineLabel();
            pushName();
            il.Emit(OpCodes.Stloc, name);
            pushDescriptor();
            il.Emit(OpCodes.Stloc, descriptor);
            il.Emit(OpCodes.Ldloc, kinds);
            il.Emit(OpCodes.Ldloc, name);
            il.Emit(OpCodes.Call, kindOf);
            il.Emit(OpCodes.Or);
            il.Emit(OpCodes.Stloc, kinds);
            il.Emit(OpCodes.Ldloc, descriptor);
            il.Emit(OpCodes.Callvirt, isEnumerable);
            il.Emit(OpCodes.Brfalse, skip);
            LoadIndex();
            il.Emit(OpCodes.Ldarg_2);
            il.Emit(OpCodes.Ldlen);
            il.Emit(OpCodes.Conv_I4);
            il.Emit(OpCodes.Bge, full);
            Label nameThere = il.DefineLabel();
            il.Emit(OpCodes.Ldarg_2);
            LoadIndex();
            il.Emit(OpCodes.Ldelema, typeof(TableEntry));
            il.Emit(OpCodes.Ldfld, entryName);
            il.Emit(OpCodes.Ldloc, name);
            il.Emit(OpCodes.Beq, nameThere);
            il.Emit(OpCodes.Ldarg_2);
            LoadIndex();
            il.Emit(OpCodes.Ldelema, typeof(TableEntry));
            il.Emit(OpCodes.Ldloc, name);
            il.Emit(OpCodes.Stfld, entryName);
            il.MarkLabel(nameThere);
            il.Emit(OpCodes.Ldarg_2);
            LoadIndex();
            il.Emit(OpCodes.Ldelema, typeof(TableEntry));
            il.Emit(OpCodes.Ldloc, descriptor);
            il.Emit(OpCodes.Stfld, entryDescriptor);
            il.MarkLabel(full);
            il.Emit(OpCodes.Ldloc, count);
            il.Emit(OpCodes.Ldc_I4_1);
            il.Emit(OpCodes.Add);
            il.Emit(OpCodes.Stloc, count);
            il.MarkLabel(skip);
        }

        // local = from.field
        void AssignField(LocalBuilder local, LocalBuilder from, FieldInfo field)
        {
            il.Emit(OpCodes.Ldloc, from);
            il.Emit(OpCodes.Ldfld, field);
            il.Emit(OpCodes.Stloc, local);
        }

        // start + count: where the next entry goes.
        void LoadIndex()
        {
            il.Emit(OpCodes.Ldarg_3);
            il.Emit(OpCodes.Ldloc, count);
            il.Emit(OpCodes.Add);
        }

        // &slots[i]
        void LoadSlotAddress()
        {
            il.Emit(OpCodes.Ldloc, slots);
            il.Emit(OpCodes.Ldloc, i);
            il.Emit(OpCodes.Ldelema, slotType);
        }

        // i = (i + 1) & mask: the next slot of the ring.
        void Step()
        {
            il.Emit(OpCodes.Ldloc, i);
            il.Emit(OpCodes.Ldc_I4_1);
            il.Emit(OpCodes.Add);
            il.Emit(OpCodes.Ldloc, mask);
            il.Emit(OpCodes.And);
            il.Emit(OpCodes.Stloc, i);
        }
    }

    // Tables small (a list) and large (a hash table, one whose slots wrapped around), with deleted, re-added,
    // integer-like, non-enumerable and accessor keys and a non-enumerable toJSON: the reader must list the enumerable
    // ones of what the public GetOwnProperties lists, in the same order, with the same descriptors, from any start and
    // when the array is too short; and note the kinds of all the names.
    private static bool ProbeTableReader(TableReader reader)
    {
        // Built with the JSON parser and the public property operations, as the scripts `delete small.b`,
        // `Object.defineProperty(small, ...)`, `large['k' + i] = i` and so on would: a probe script cost a new process
        // 50-80 ms, mostly compiling Jint's interpreter.
        using var engine = new Engine();
        var parser = new JsonParser(engine);
        var small = (JsObject)parser.Parse("""{"a": 1, "b": "x", "c": null}""");
        small.Delete("b");
        small.Set("d", 2);
        small.Set("b", 3);
        small.DefineOwnProperty("hidden", new PropertyDescriptor(1, writable: false, enumerable: false, configurable: false));
        small.DefineOwnProperty(JsonConstants.ToJsonName, new PropertyDescriptor(1, writable: false, enumerable: false, configurable: false));
        var getter = new ClrFunction(engine, "get", (_, _) => 1);
        small.DefineOwnProperty("getter", new GetSetPropertyDescriptor(getter, JsValue.Undefined, enumerable: true, configurable: false));

        var large = (JsObject)parser.Parse("{}");
        for (int i = 0; i < 40; i++)
        {
            large.Set("k" + i, i);
        }

        for (int i = 0; i < 40; i += 3)
        {
            large.Delete("k" + i);
        }

        large.Set("7", "seven");
        large.Set("01", "x");
        large.Set("k0", "back");
        large.Set(GlobalSymbolRegistry.Iterator, 1);

        var emptied = (JsObject)parser.Parse("""{"a": 1}""");
        emptied.Delete("a");

        // Slots freed at the start of the ring and taken again after its end: the ring wraps around.
        var ring = (JsObject)parser.Parse("{}");
        for (int i = 0; i < 12; i++)
        {
            ring.Set("k" + i, i);
        }

        foreach (string key in (string[])["k0", "k1", "k2"])
        {
            ring.Delete(key);
        }

        foreach (string key in (string[])["x", "y", "z", "w", "v"])
        {
            ring.Set(key, 1);
        }

        ring.Delete("k5");
        foreach (JsObject o in (JsObject[])[small, large, emptied, ring])
        {
            object? table = PropertyTable(o);
            if (GetShape(o) is not null || table is null)
            {
                return false;
            }

            var keys = o.GetOwnProperties().Where(p => p.Key.Type == Types.String).ToList();
            var expected = keys.Where(p => p.Value.Enumerable).ToList();
            TableNameKinds expectedKinds = TableNameKinds.None;
            foreach (KeyValuePair<JsValue, PropertyDescriptor> key in keys)
            {
                expectedKinds |= TableEntry.KindOf(key.Key.ToString());
            }

            // Read from the second entry on, as onto a stack that holds one already, and into an array too short.
            var entries = new TableEntry[expected.Count + 1];
            if (reader(table, entries, 1, out TableNameKinds kinds) != expected.Count || kinds != expectedKinds
                || (expected.Count > 1 && reader(table, new TableEntry[1], 0, out _) != expected.Count))
            {
                return false;
            }

            for (int i = 0; i < expected.Count; i++)
            {
                if (entries[i + 1].Name != expected[i].Key.ToString() || !ReferenceEquals(entries[i + 1].Descriptor, expected[i].Value))
                {
                    return false;
                }
            }
        }

        return true;
    }

    private static bool ProbeOptionsAccessor()
    {
        try
        {
            var options = new Options();
            using var engine = new Engine(options);
            return ReferenceEquals(GetOptions(engine), options);
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // A script function, an arrow function and a native one, called through the accessor, must return what the public
    // Engine.Call returns, see the same this and arguments, and let a thrown value through.
    private static bool ProbeCallAccessor()
    {
        try
        {
            using var engine = new Engine();
            JsValue function = engine.Evaluate("(function (a, b) { return [this === undefined ? 'u' : this.t, a, b, arguments.length].join(); })");
            JsValue arrow = engine.Evaluate("(a) => a + 1");
            JsValue native = engine.Evaluate("Math.max");
            JsValue thrower = engine.Evaluate("(function () { throw 'probe'; })");
            JsValue self = engine.Evaluate("({t: 'T'})");
            JsValue proxy = engine.Evaluate("new Proxy(function (a) { return a * 2; }, {})");
            JsValue[] args = [JsNumber.Create(1), new JsString("x")];
            bool agrees =
                Call(engine, function, self, args).ToString() == engine.Call(function, self, args).ToString()
                && Call(engine, function, self, args).ToString() == "T,1,x,2"
                && EngineCall(engine, function, self, args, null).ToString() == "T,1,x,2"
                && Call(engine, arrow, JsValue.Undefined, [JsNumber.Create(41)]).AsNumber() == 42
                && Call(engine, native, JsValue.Undefined, [JsNumber.Create(3), JsNumber.Create(9)]).AsNumber() == 9
                && Call(engine, proxy, JsValue.Undefined, [JsNumber.Create(21)]).AsNumber() == 42;
            foreach (JsValue callable in (JsValue[])[thrower, engine.Evaluate("new Proxy(function () { throw 'probe'; }, {})")])
            {
                try
                {
                    Call(engine, callable, JsValue.Undefined, []);
                    return false;
                }
                catch (JavaScriptException e) when (e.Error.ToString() == "probe")
                {
                }
            }

            return agrees;
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // Arrays, Array.prototype, proxies of arrays (nested too) and of other objects must answer as the spec says, after
    // a script replaced Array.isArray, and a revoked proxy must throw a TypeError.
    private static bool ProbeIsArrayAccessor()
    {
        try
        {
            using var engine = new Engine();
            engine.Execute("var r = Proxy.revocable([], {}); r.revoke(); Array.isArray = function () { return true; };");
            foreach (string array in (string[])["[]", "Array.prototype", "new Proxy([], {})", "new Proxy(new Proxy([1], {}), {})"])
            {
                if (!IsArrayOperation((ObjectInstance)engine.Evaluate(array)))
                {
                    return false;
                }
            }

            foreach (string other in (string[])["({length: 0})", "new Proxy({}, {})", "new Proxy(new Proxy(function () {}, {}), {})", "Object.create([])"])
            {
                if (IsArrayOperation((ObjectInstance)engine.Evaluate(other)))
                {
                    return false;
                }
            }

            try
            {
                IsArrayOperation((ObjectInstance)engine.Evaluate("r.proxy"));
                return false;
            }
            catch (JavaScriptException e) when (e.Error is ObjectInstance error && ReferenceEquals(error.Prototype, engine.Intrinsics.TypeError.Get("prototype")))
            {
                return true;
            }
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // The accessor must give the constructor that the untouched global RangeError holds, still after a script replaced
    // the binding, and the errors it makes must be RangeErrors.
    private static bool ProbeRangeErrorAccessor()
    {
        try
        {
            using var engine = new Engine();
            JsValue global = engine.GetValue("RangeError");
            engine.Execute("RangeError = SyntaxError;");
            ErrorConstructor intrinsic = RangeErrorOf(engine.Intrinsics);
            ObjectInstance error = intrinsic.Construct("probe");
            return ReferenceEquals(intrinsic, global)
                && error.Get("name").ToString() == "RangeError"
                && error.Get("message").ToString() == "probe"
                && ReferenceEquals(error.Prototype, global.Get("prototype"));
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // The flag must be false while the engine is idle, and true inside a host function that a script called and inside
    // one that the host called through the public Engine.Call, and false again afterwards.
    private static bool ProbeEvaluationStateAccessor()
    {
        try
        {
            using var engine = new Engine();
            bool idle = !EvaluationInProgress(engine);
            bool fromScript = false;
            bool fromHost = false;
            engine.SetValue("probe", new ClrFunction(engine, "probe", (_, _) =>
            {
                fromScript = EvaluationInProgress(engine);
                return JsValue.Undefined;
            }));
            engine.Execute("probe()");
            engine.Call(new ClrFunction(engine, "probe", (_, _) =>
            {
                fromHost = EvaluationInProgress(engine);
                return JsValue.Undefined;
            }), JsValue.Undefined, []);
            return idle && fromScript && fromHost && !EvaluationInProgress(engine);
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // Every accessor is called on probes and must agree with the public API: keys, slot values, the shape changing
    // on deopt, integer-like keys refused, and dense elements.
    private static bool ProbeShapeAccessors()
    {
        try
        {
            // The probe objects come from the JSON parser and the public property operations, not from scripts:
            // compiling Jint's interpreter for probe scripts cost a new process most of this test's 54 ms.
            using var engine = new Engine();
            var parser = new JsonParser(engine);
            var first = (JsObject)parser.Parse("""{"a": 1, "b": "two", "c": {"d": true}, "e": null, "f": 5.5}""");
            var second = (JsObject)parser.Parse("""{"a": 2, "b": "x", "c": {}, "e": 1, "f": 0}""");
            object? shape = GetShape(first);
            if (shape is null
                || engine.Advanced.GetObjectRepresentation(first) != ObjectRepresentation.HiddenClass
                || !ReferenceEquals(shape, GetShape(second))
                || !ShapeKeyStrings(shape, out JsValue[]? keys)
                || keys is null)
            {
                return false;
            }

            List<JsValue> publicKeys = first.GetOwnPropertyKeys(Types.String);
            if (ShapeSlotCount(shape) != publicKeys.Count || keys.Length != publicKeys.Count)
            {
                return false;
            }

            for (int i = 0; i < keys.Length; i++)
            {
                if (!keys[i].Equals(publicKeys[i]) || !ReferenceEquals(RawSlot(first, i), first.Get(keys[i])))
                {
                    return false;
                }
            }

            // A lazy slot reads as a placeholder until [[Get]] runs its factory, then as the value.
            int factoryCalls = 0;
            JsObjectLayout lazyLayout = JsObjectLayout.CreateBuilder()
                .Add("a")
                .AddLazy("b", (_, _) =>
                {
                    factoryCalls++;
                    return new JsString("made");
                })
                .Build();
            JsObject lazy = JsObject.Create(engine, lazyLayout, [JsNumber.Create(1), null]);
            if (RawSlot(lazy, 1).Type != Types.Empty
                || factoryCalls != 0
                || lazy.Get("b").ToString() != "made"
                || factoryCalls != 1
                || RawSlot(lazy, 1).ToString() != "made"
                || RawSlot(lazy, 0).Type == Types.Empty)
            {
                return false;
            }

            var empty = (JsObject)parser.Parse("{}");
            if (!IsVirgin(empty) || IsVirgin(first) || empty.GetOwnPropertyKeys().Count != 0)
            {
                return false;
            }

            var deopted = (JsObject)parser.Parse("""{"a": 1, "b": 2}""");
            deopted.Delete("a");
            var integerLike = (JsObject)parser.Parse("""{"1": "x", "a": 2}""");
            object? integerShape = GetShape(integerLike);
            if (GetShape(deopted) is not null
                || IsVirgin(deopted)
                || engine.Advanced.GetObjectRepresentation(deopted) == ObjectRepresentation.HiddenClass
                || (integerShape is not null && ShapeKeyStrings(integerShape, out _)))
            {
                return false;
            }

            var array = (JsArray)parser.Parse("""[1, "x", null, {}]""");
            JsValue?[]? dense = Dense(array);
            if (dense is null || dense.Length < array.Length || PropertyTable(array) is not null)
            {
                return false;
            }

            // An own toJSON, as data or accessor, must show in the table; so must any other named property.
            var withData = (JsArray)parser.Parse("[1]");
            withData.Set("toJSON", 1);
            var withAccessor = (JsArray)parser.Parse("[2]");
            var getter = new ClrFunction(engine, "get", (_, _) => 1);
            withAccessor.DefineOwnProperty("toJSON", new GetSetPropertyDescriptor(getter, JsValue.Undefined, enumerable: false, configurable: false));
            var named = (JsArray)parser.Parse("[]");
            named.Set("x", 2);
            foreach (JsArray withTable in (JsArray[])[withData, withAccessor, named])
            {
                if (PropertyTable(withTable) is null)
                {
                    return false;
                }
            }

            for (uint i = 0; i < array.Length; i++)
            {
                if (!array.TryGetValue(i, out JsValue element) || !ReferenceEquals(element, dense[i]))
                {
                    return false;
                }
            }

            return true;
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // What a missing or changed member throws at its first call.
    private static bool IsAccessorFailure(Exception e) =>
        e is MissingMemberException or TypeLoadException or InvalidCastException or InvalidProgramException
            or BadImageFormatException or NullReferenceException or NotSupportedException;

    private const string ProxyType = "Jint.Native.JsProxy, Jint";

    private static readonly Lazy<bool> s_proxyTargetAccessorWorks = new(ProbeProxyTargetAccessor);

    /// <summary>
    /// Whether the accessor to a proxy's target passed its self-test. Not turned off for the public reader: it serves
    /// Jint's host convention (a proxy over a wrapped CLR collection is an array), which has no public route.
    /// </summary>
    public static bool ProxyTargetAccessorWorks => s_proxyTargetAccessorWorks.Value;

    /// <summary>
    /// The [[ProxyTarget]] of <paramref name="proxy"/>, a proxy (of <see cref="EngineTypes.Proxy"/>), or null once it is
    /// revoked. Reading it runs no user code. Only after <see cref="ProxyTargetAccessorWorks"/>.
    /// </summary>
    public static ObjectInstance? ProxyTarget(ObjectInstance proxy)
    {
        Debug.Assert(proxy.GetType() == EngineTypes.Instance.Proxy, "a proxy");
        return ProxyTargetField(proxy);
    }

    // Jint 4.18.0: internal ObjectInstance JsProxy._target (set to null when the proxy is revoked)
    [UnsafeAccessor(UnsafeAccessorKind.Field, Name = "_target")]
    private static extern ref ObjectInstance? ProxyTargetField([UnsafeAccessorType(ProxyType)] object proxy);

    // Proxies made through the public API, over a wrapped CLR object and over another proxy, must give back the
    // objects they were made over, and a revoked one null.
    private static bool ProbeProxyTargetAccessor()
    {
        try
        {
            using var engine = new Engine();
            var wrapper = (ObjectInstance)JsValue.FromObject(engine, new List<int> { 1 });
            var handler = new ForwardingHandler();
            ObjectInstance inner = engine.Advanced.CreateProxy(wrapper, handler);
            ObjectInstance outer = engine.Advanced.CreateProxy(inner, handler);
            var plain = new JsObject(engine);
            RevocableProxy revocable = engine.Advanced.CreateRevocableProxy(plain, handler);
            bool live = ReferenceEquals(ProxyTargetField(revocable.Proxy), plain);
            revocable.Revoke();
            Type proxy = EngineTypes.Instance.Proxy;
            return inner.GetType() == proxy
                && outer.GetType() == proxy
                && ReferenceEquals(ProxyTargetField(inner), wrapper)
                && ReferenceEquals(ProxyTargetField(outer), inner)
                && live
                && ProxyTargetField(revocable.Proxy) is null;
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // A handler with no traps: every operation goes to the target.
    private sealed class ForwardingHandler : ProxyHandler;

    private static readonly Lazy<bool> s_ownPropertyProbeWorks = new(ProbeOwnPropertyProbe);

    /// <summary>Whether the accessor to Jint's own-property probe passed its self-test (and the suite allows it).</summary>
    public static bool OwnPropertyProbeWorks => !ForcePublicReader && s_ownPropertyProbeWorks.Value;

    /// <summary>
    /// [[GetOwnProperty]](<paramref name="key"/>) of <paramref name="o"/> reduced to whether it is there and enumerable,
    /// as Jint's own serializer asks it: through the object's ProbeOwnProperty, which must agree with GetOwnProperty
    /// and run the same user code (a proxy's getOwnPropertyDescriptor trap), and which a host object may answer without
    /// building a descriptor (a wrapped dictionary asks ContainsKey). Only after <see cref="OwnPropertyProbeWorks"/>.
    /// </summary>
    public static bool IsEnumerableOwnProperty(ObjectInstance o, JsValue key) => ProbeOwn(o, key) == OwnPropertyProbe.Enumerable;

    // Jint 4.18.0: internal OwnPropertyProbe ObjectInstance.ProbeOwnPropertyChecked(JsValue property), the virtual
    // protected internal ProbeOwnProperty with Jint's host-contract check when that is switched on.
    [UnsafeAccessor(UnsafeAccessorKind.Method, Name = "ProbeOwnPropertyChecked")]
    private static extern OwnPropertyProbe ProbeOwn(ObjectInstance o, JsValue property);

    // On a wrapped dictionary, a wrapped CLR object, a plain object, an array and a proxy (whose trap must run once per
    // probe), the probe must answer what GetOwnProperty says, for present, non-enumerable and missing keys.
    private static bool ProbeOwnPropertyProbe()
    {
        try
        {
            using var engine = new Engine();
            var parser = new JsonParser(engine);
            var plain = (JsObject)parser.Parse("""{"a": 1}""");
            plain.DefineOwnProperty("hidden", new PropertyDescriptor(1, writable: false, enumerable: false, configurable: false));
            var array = (JsArray)parser.Parse("[1]");
            var dictionary = (ObjectInstance)JsValue.FromObject(engine, new Dictionary<string, object> { ["a"] = 1 });
            var clr = (ObjectInstance)JsValue.FromObject(engine, new KeyValuePair<string, int>("k", 1));
            var trap = new CountingHandler();
            ObjectInstance proxy = engine.Advanced.CreateProxy(plain, trap);
            foreach (ObjectInstance o in (ObjectInstance[])[plain, array, dictionary, clr, proxy])
            {
                foreach (string name in (string[])["a", "hidden", "0", "length", "Key", "missing"])
                {
                    var key = new JsString(name);
                    int trapsBefore = trap.Calls;
                    OwnPropertyProbe probe = ProbeOwn(o, key);
                    int trapCalls = trap.Calls - trapsBefore;
                    PropertyDescriptor descriptor = o.GetOwnProperty(key);
                    OwnPropertyProbe expected = descriptor == PropertyDescriptor.Undefined
                        ? OwnPropertyProbe.Missing
                        : descriptor.Enumerable ? OwnPropertyProbe.Enumerable : OwnPropertyProbe.NonEnumerable;
                    if (probe != expected || trapCalls != (ReferenceEquals(o, proxy) ? 1 : 0))
                    {
                        return false;
                    }
                }
            }

            return trap.Calls == 12;
        }
        catch (Exception e) when (IsAccessorFailure(e))
        {
            return false;
        }
    }

    // Counts getOwnPropertyDescriptor traps and forwards them.
    private sealed class CountingHandler : ProxyHandler
    {
        public int Calls { get; private set; }

        public override PropertyDescriptor? GetOwnPropertyDescriptor(ObjectInstance target, JsValue property)
        {
            Calls++;
            return null;
        }
    }
}
