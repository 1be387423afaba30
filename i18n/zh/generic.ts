import type { Catalogue } from '../types';
import type { generic as en } from '../en/generic';

export const generic: Catalogue<typeof en> = {
  list: { actions: '操作' },
  empty: { title: '暂无%{name}', invite: '创建第一条记录。' },
  export: {
    button: '导出',
    csv: 'CSV 文件',
    xlsx: 'Excel 文件 (XLSX)',
    title: '正在导出',
    preparing: '正在生成文件…',
    percent: '已下载 %{percent}%',
    bytes: '已下载 %{size}',
  },
  savedFilters: {
    button: '已存筛选',
    empty: '暂无已存筛选',
    saveCurrent: '保存当前筛选…',
    name: '名称',
    personal: '个人',
    public: '公共',
    builtIn: '内置',
    saved: '筛选已保存',
    deleted: '筛选已删除',
    deleteTitle: '删除已存筛选',
    deleteConfirm: '确定删除已存筛选"%{name}"吗？',
    deleteHint: '按 Delete 键删除此筛选',
    // names of the built-in filters (server/seed), by their stored name
    builtInNames: { 'Enabled users': '已启用的用户' },
  },
  boolean: { true: '是', false: '否' },
  permissionActions: {
    page: '列表',
    show: '详情',
    create: '新增',
    edit: '编辑',
    delete: '删除',
    export: '导出',
    label: '%{resource}：%{action}',
  },
  tree: {
    expand: '展开',
    collapse: '收起',
    expandAll: '全部展开',
    collapseAll: '全部收起',
    selectAll: '全选',
    clear: '清空',
  },
  resetPassword: {
    title: '重置 %{name} 的密码',
    password: '新密码',
    confirmPassword: '确认密码',
    success: '密码已重置，该用户下次登录时必须修改密码。',
  },
  toggleEnabled: { enabled: '用户已启用', disabled: '用户已停用' },
};
