// Labels of the audit log declaration in Chinese (checked against the English ones).
import type { Catalogue } from '../types';
import type { auditResources as enResources } from '../en/audit';
import { remote } from './remote';

/** `command.<name>`: one per remote command, from its label in remote.ts (so a new command needs none here). */
const commandActions = Object.fromEntries(Object.entries(remote.commands).map(([name, label]) => [name, `远程命令：${label}`])) as Record<keyof typeof remote.commands, string>;

export const auditResources: Catalogue<typeof enResources> = {
  auditLog: {
    name: '审计日志',
    fields: {
      id: 'ID',
      time: '时间',
      userName: '用户',
      userId: '用户 ID',
      action: '操作',
      resource: '对象类型',
      recordId: '记录 ID',
      outcome: '结果',
      address: 'IP 地址',
      changes: '变更内容',
      details: '详情',
    },
    filters: {
      timeFrom: '时间自',
      timeTo: '时间至',
      userNameLike: '用户',
      action: '操作',
      resource: '对象类型',
      recordId: '记录 ID',
      address: 'IP 地址',
      outcome: '结果',
    },
    enums: {
      action: {
        create: '新增',
        update: '修改',
        delete: '删除',
        signIn: '登录',
        signOut: '退出登录',
        passwordChange: '修改密码',
        passwordReset: '管理员重置密码',
        passwordResetByLink: '通过邮件链接重置密码',
        command: { ...commandActions, cancel: '取消远程命令' },
        gateway: {
          rotateSecret: '轮换回收机网关密钥',
          rotateEnrollmentKey: '轮换注册密钥',
        },
      },
      resource: {
        account: '许可账户',
        user: '用户',
        role: '角色',
        permission: '权限',
        fleet: '机群',
        machine: '回收机',
        eventNotification: '事件通知',
        reportNotification: '报表通知',
        deploymentPackage: '软件包',
        deployment: '部署',
        csThridApp: '消费者会话应用',
        ciThridApp: '回收应用',
        statusThridApp: '机器状态应用',
        csApi: '消费者会话订阅',
        ciApi: '回收订阅',
        statusApi: '机器状态订阅',
        csApiTransaction: '消费者会话消息',
        ciApiTransaction: '回收消息',
        statusApiTransaction: '机器状态消息',
        resourceType: '资源类型',
        savedFilter: '已保存的筛选',
      },
      outcome: {
        success: '成功',
        failure: '失败',
        queued: '已排队',
        partial: '部分排队',
        refused: '被拒绝',
        cancelled: '已取消',
        done: '已完成',
      },
    },
    view: {
      field: '字段',
      before: '修改前',
      after: '修改后',
      redacted: '已更改（不记录其值）',
      noChanges: '没有字段被修改',
      detailKeys: {
        rvmIds: '回收机',
        batchId: '批次',
        commandIds: '命令',
        resendOf: '重发自',
        params: '参数',
        refused: '被拒绝',
        command: '命令',
        reason: '原因',
        locked: '本次失败后锁定',
      },
      reasons: {
        unknownUser: '用户名不存在',
        wrongPassword: '密码错误',
        disabled: '用户已停用',
      },
    },
  },
};
